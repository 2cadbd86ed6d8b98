// The live boards of a round (ADR http-009): follows the round's live stream
// (server-sent events, one `board` event per change) and updates the table's cells;
// the running clock counts down between events. Without this script the page is the
// snapshot the server made.
(function () {
  "use strict";
  var status = document.getElementById("live-status");
  if (!status || !window.EventSource) {
    return;
  }
  var boards = {};
  var skew = 0;
  function pad(n) {
    return (n < 10 ? "0" : "") + n;
  }
  // As the server writes a clock (crate::live::clock_text): h:mm:ss, or m:ss under an hour.
  function text(ms) {
    var s = Math.max(0, Math.floor(ms / 1000));
    var h = Math.floor(s / 3600);
    var m = Math.floor((s % 3600) / 60);
    var x = s % 60;
    return h > 0 ? h + ":" + pad(m) + ":" + pad(x) : m + ":" + pad(x);
  }
  // As the server writes a result (pages::display_result).
  function shown(r) {
    return r === "1/2" || r === "1/2-1/2" ? "\u00bd-\u00bd" : r.replace("1/2", "\u00bd");
  }
  function remaining(b, now) {
    var w = b.white_ms;
    var k = b.black_ms;
    if (b.running) {
      var spent = Math.max(0, now - skew - b.as_of_ms);
      if (b.side_to_move === "white") {
        w = Math.max(0, w - spent);
      } else {
        k = Math.max(0, k - spent);
      }
    }
    return [w, k];
  }
  function draw(b, now) {
    var row = document.querySelector('tr.live-board[data-board="' + b.board + '"]');
    if (!row) {
      return;
    }
    var r = remaining(b, now);
    var wc = row.querySelector(".white-clock");
    var bc = row.querySelector(".black-clock");
    wc.textContent = text(r[0]);
    bc.textContent = text(r[1]);
    var side = b.running ? b.side_to_move : "";
    wc.classList.toggle("running", side === "white");
    bc.classList.toggle("running", side === "black");
    row.dataset.running = side;
    row.dataset.moves = String(b.moves);
    var cell = row.querySelector("td.moves");
    cell.textContent = "";
    if (b.result) {
      var strong = document.createElement("strong");
      strong.className = "result";
      strong.textContent = shown(b.result);
      cell.appendChild(strong);
      cell.appendChild(document.createTextNode(" "));
    }
    var move = document.createElement("span");
    move.className = "last-move";
    move.textContent = b.last_move;
    cell.appendChild(move);
  }
  var source = new EventSource(status.dataset.stream);
  source.addEventListener("board", function (e) {
    var b = JSON.parse(e.data);
    skew = Date.now() - b.server_now_ms;
    boards[b.board] = b;
    draw(b, Date.now());
  });
  source.onopen = function () {
    status.textContent = status.dataset.connected;
  };
  source.onerror = function () {
    status.textContent = status.dataset.interrupted;
  };
  setInterval(function () {
    var now = Date.now();
    Object.keys(boards).forEach(function (k) {
      if (boards[k].running) {
        draw(boards[k], now);
      }
    });
  }, 250);
})();
