//! Maximum matching in a general graph (Edmonds' blossom algorithm, O(n³)).
//!
//! Used as look-ahead: the exchange search only takes an exchange when the players left can
//! still all be paired, so it never walks into a dead end and never needs exponential
//! backtracking. It changes no result: the search still returns the first complete pairing in
//! the rules' order.

const NONE: usize = usize::MAX;

/// Size (number of pairs) of a maximum matching of the graph on `0..n` with edges `adj`.
#[must_use]
pub fn maximum_matching_size(n: usize, adj: &dyn Fn(usize, usize) -> bool) -> usize {
    let edges: Vec<Vec<usize>> = (0..n)
        .map(|v| {
            (0..n)
                .filter(|&u| u != v && adj(v, u) && adj(u, v))
                .collect()
        })
        .collect();
    let mut mate = vec![NONE; n];
    // Greedy start.
    for v in 0..n {
        if mate[v] == NONE
            && let Some(&u) = edges[v].iter().find(|&&u| mate[u] == NONE)
        {
            mate[v] = u;
            mate[u] = v;
        }
    }
    for root in 0..n {
        if mate[root] != NONE {
            continue;
        }
        if let Some((end, parent)) = find_augmenting_path(root, &edges, &mate) {
            let mut v = end;
            while v != NONE {
                let pv = parent[v];
                let ppv = mate[pv];
                mate[v] = pv;
                mate[pv] = v;
                v = ppv;
            }
        }
    }
    mate.iter().filter(|&&m| m != NONE).count() / 2
}

/// Whether the players `list` (indices into whatever `adj` reads) can all be paired.
#[must_use]
pub fn perfectly_matchable(list: &[usize], adj: &dyn Fn(usize, usize) -> bool) -> bool {
    list.len().is_multiple_of(2)
        && maximum_matching_size(list.len(), &|a, b| adj(list[a], list[b])) * 2 == list.len()
}

/// Breadth-first search for an augmenting path from the exposed vertex `root`; returns its other
/// end and the parent array to walk it back.
fn find_augmenting_path(
    root: usize,
    edges: &[Vec<usize>],
    mate: &[usize],
) -> Option<(usize, Vec<usize>)> {
    let n = edges.len();
    let mut used = vec![false; n];
    let mut parent = vec![NONE; n];
    let mut base: Vec<usize> = (0..n).collect();
    used[root] = true;
    let mut queue = std::collections::VecDeque::from([root]);
    while let Some(v) = queue.pop_front() {
        for &to in &edges[v] {
            if base[v] == base[to] || mate[v] == to {
                continue;
            }
            if to == root || (mate[to] != NONE && parent[mate[to]] != NONE) {
                let cur = lca(v, to, &base, mate, &parent);
                let mut blossom = vec![false; n];
                mark_path(v, cur, to, &mut blossom, &base, mate, &mut parent);
                mark_path(to, cur, v, &mut blossom, &base, mate, &mut parent);
                for i in 0..n {
                    if blossom[base[i]] {
                        base[i] = cur;
                        if !used[i] {
                            used[i] = true;
                            queue.push_back(i);
                        }
                    }
                }
            } else if parent[to] == NONE {
                parent[to] = v;
                if mate[to] == NONE {
                    return Some((to, parent));
                }
                let next = mate[to];
                used[next] = true;
                queue.push_back(next);
            }
        }
    }
    None
}

fn lca(mut a: usize, mut b: usize, base: &[usize], mate: &[usize], parent: &[usize]) -> usize {
    let mut seen = vec![false; base.len()];
    loop {
        a = base[a];
        seen[a] = true;
        if mate[a] == NONE {
            break;
        }
        a = parent[mate[a]];
    }
    loop {
        b = base[b];
        if seen[b] {
            return b;
        }
        b = parent[mate[b]];
    }
}

fn mark_path(
    mut v: usize,
    b: usize,
    mut child: usize,
    blossom: &mut [bool],
    base: &[usize],
    mate: &[usize],
    parent: &mut [usize],
) {
    while base[v] != b {
        blossom[base[v]] = true;
        blossom[base[mate[v]]] = true;
        parent[v] = child;
        child = mate[v];
        v = parent[mate[v]];
    }
}
