//! A small HTTP/1.1 client for the tests of arbiterd's HTTP listener (`Connection:
//! close`, one request per connection, chunked bodies decoded), and a WebDriver client
//! for chromedriver (JSON over the same client). No dependency beyond std and
//! serde_json.
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

/// An answer.
#[derive(Debug, Clone)]
pub struct Answer {
    /// Status code.
    pub status: u16,
    /// Headers, names lower case.
    pub headers: Vec<(String, String)>,
    /// Body.
    pub body: Vec<u8>,
}

impl Answer {
    /// The first value of header `name` (lower case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The body as text.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    /// The body as JSON (panics naming the body when it is not).
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.text()))
    }
}

/// Sends `method path` to `127.0.0.1:port` with `headers` and `body`.
pub fn request(
    port: u16,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> Answer {
    let mut s = TcpStream::connect(("127.0.0.1", port)).expect("connect to the HTTP listener");
    s.set_read_timeout(Some(Duration::from_secs(60))).ok();
    let mut head =
        format!("{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n");
    for (n, v) in headers {
        head.push_str(&format!("{n}: {v}\r\n"));
    }
    if !body.is_empty() || method == "POST" || method == "PUT" {
        head.push_str(&format!("Content-Length: {}\r\n", body.len()));
    }
    head.push_str("\r\n");
    s.write_all(head.as_bytes()).unwrap();
    // A server may refuse a large body before reading it (413) and close: not an error.
    let _ = s.write_all(body);
    // Read the head, then as much body as it announces (a server may keep the
    // connection open whatever `Connection: close` says, as chromedriver does).
    let mut raw = Vec::new();
    let mut buf = [0u8; 16 * 1024];
    loop {
        if let Some(end) = raw.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&raw[..end]).to_ascii_lowercase();
            let length = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .and_then(|v| v.trim().parse::<usize>().ok());
            let chunked = head.contains("transfer-encoding: chunked");
            let body = &raw[end + 4..];
            let done = match length {
                Some(n) => body.len() >= n,
                None if chunked => body.ends_with(b"0\r\n\r\n"),
                None => head.starts_with("http/1.1 304") || head.starts_with("http/1.1 204"),
            };
            if done {
                break;
            }
        }
        match s.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => raw.extend_from_slice(&buf[..n]),
        }
    }
    parse(&raw)
}

/// GET with headers.
pub fn get(port: u16, path: &str, headers: &[(&str, &str)]) -> Answer {
    request(port, "GET", path, headers, b"")
}

fn parse(raw: &[u8]) -> Answer {
    let end = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or_else(|| panic!("no HTTP head in {:?}", String::from_utf8_lossy(raw)));
    let head = String::from_utf8_lossy(&raw[..end]).into_owned();
    let mut lines = head.split("\r\n");
    let status: u16 = lines
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|c| c.parse().ok())
        .unwrap_or_else(|| panic!("bad status line: {head}"));
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    let mut body = raw[end + 4..].to_vec();
    if headers
        .iter()
        .any(|(n, v)| n == "transfer-encoding" && v.contains("chunked"))
    {
        body = dechunk(&body);
    }
    Answer {
        status,
        headers,
        body,
    }
}

fn dechunk(mut b: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let Some(i) = b.windows(2).position(|w| w == b"\r\n") else {
            return out;
        };
        let size = usize::from_str_radix(
            String::from_utf8_lossy(&b[..i])
                .split(';')
                .next()
                .unwrap_or("0")
                .trim(),
            16,
        )
        .unwrap_or(0);
        if size == 0 || b.len() < i + 2 + size {
            return out;
        }
        out.extend_from_slice(&b[i + 2..i + 2 + size]);
        b = &b[(i + 4 + size).min(b.len())..];
    }
}

/// A chromedriver process and one headless Chromium session (W3C WebDriver).
pub struct WebDriver {
    port: u16,
    session: String,
    _driver: crate::Proc,
    _profile: tempfile_dir::Dir,
}

mod tempfile_dir {
    /// A directory removed on drop.
    pub struct Dir(pub std::path::PathBuf);
    impl Drop for Dir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// The first of `names` found on PATH or in /usr/bin.
pub fn program(names: &[&str]) -> Option<std::path::PathBuf> {
    let mut dirs: Vec<std::path::PathBuf> = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect())
        .unwrap_or_default();
    dirs.push("/usr/bin".into());
    names
        .iter()
        .flat_map(|n| dirs.iter().map(move |d| d.join(n)))
        .find(|p| p.is_file())
}

impl WebDriver {
    /// Starts chromedriver on a free port and a headless Chromium session (the flags
    /// that keep it off the network, a fresh profile). Panics, naming
    /// tests/install-deps.sh, when Chromium or chromedriver is missing.
    pub fn start() -> WebDriver {
        let chromium = program(&["chromium", "chromium-browser"]).unwrap_or_else(|| {
            panic!("chromium is missing: run tests/install-deps.sh (apt-get install chromium)")
        });
        let driver = program(&["chromedriver"]).unwrap_or_else(|| {
            panic!(
                "chromedriver is missing: run tests/install-deps.sh (apt-get install chromium-driver)"
            )
        });
        let port = arbiter_testkit::free_port();
        let mut cmd = std::process::Command::new(driver);
        cmd.arg(format!("--port={port}"));
        let mut p = crate::Proc::spawn(&mut cmd);
        p.wait_line("ChromeDriver was started successfully", 30);
        let profile =
            std::env::temp_dir().join(format!("arbiter-chromium-{}-{port}", std::process::id()));
        let _ = std::fs::remove_dir_all(&profile);
        std::fs::create_dir_all(&profile).unwrap();
        let caps = serde_json::json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": chromium.display().to_string(),
                "args": ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                         "--no-first-run", "--disable-background-networking",
                         "--disable-component-update", "--disable-sync",
                         "--disable-dev-shm-usage",
                         format!("--user-data-dir={}", profile.display())],
            }
        }}});
        let a = request(
            port,
            "POST",
            "/session",
            &[("Content-Type", "application/json")],
            caps.to_string().as_bytes(),
        );
        let v = a.json();
        let session = v["value"]["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no WebDriver session: {v}"))
            .to_owned();
        WebDriver {
            port,
            session,
            _driver: p,
            _profile: tempfile_dir::Dir(profile),
        }
    }

    fn call(&self, method: &str, what: &str, body: serde_json::Value) -> serde_json::Value {
        let path = format!("/session/{}{what}", self.session);
        let body = if method == "GET" {
            String::new()
        } else {
            body.to_string()
        };
        let a = request(
            self.port,
            method,
            &path,
            &[("Content-Type", "application/json")],
            body.as_bytes(),
        );
        let v = a.json();
        assert!(
            a.status == 200,
            "WebDriver {method} {what}: {} {v}",
            a.status
        );
        v["value"].clone()
    }

    /// Loads `url` (waits for the load event).
    pub fn goto(&self, url: &str) {
        self.call("POST", "/url", serde_json::json!({ "url": url }));
    }

    /// Runs `script` (a function body; `arguments` are `args`) and returns its value.
    pub fn execute(&self, script: &str, args: serde_json::Value) -> serde_json::Value {
        self.call(
            "POST",
            "/execute/sync",
            serde_json::json!({ "script": script, "args": args }),
        )
    }

    /// Runs `script` whose last argument is the callback it calls with its result.
    pub fn execute_async(&self, script: &str, args: serde_json::Value) -> serde_json::Value {
        self.call(
            "POST",
            "/execute/async",
            serde_json::json!({ "script": script, "args": args }),
        )
    }

    /// Sets the window's size in CSS pixels.
    pub fn window(&self, width: u32, height: u32) {
        self.call(
            "POST",
            "/window/rect",
            serde_json::json!({ "width": width, "height": height }),
        );
    }

    /// A PNG of the viewport, written to `path`.
    pub fn screenshot(&self, path: &std::path::Path) {
        let v = self.call("GET", "/screenshot", serde_json::Value::Null);
        let png = base64::Engine::decode(
            &base64::engine::general_purpose::STANDARD,
            v.as_str().unwrap_or_default(),
        )
        .unwrap();
        assert!(png.starts_with(b"\x89PNG"), "no PNG from the screenshot");
        std::fs::write(path, png).unwrap();
    }
}

impl Drop for WebDriver {
    fn drop(&mut self) {
        let _ = request(
            self.port,
            "DELETE",
            &format!("/session/{}", self.session),
            &[],
            b"",
        );
    }
}
