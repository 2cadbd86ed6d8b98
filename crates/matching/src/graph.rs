//! The graph the searches walk: adjacency arrays (one array of neighbours, sliced per vertex),
//! built once from a list of edges.

/// An undirected graph on `0..n` as adjacency arrays (each edge listed at both ends).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Graph {
    /// `start[v]..start[v + 1]`: the range of `to` holding v's neighbours.
    start: Vec<usize>,
    to: Vec<u32>,
}

impl Graph {
    /// The graph on `0..n` with the edges `pairs`, each vertex's neighbours in ascending
    /// order (so [`Graph::has_edge`] is a binary search). Loops and pairs with an end ≥ n (or beyond `u32`) are ignored; a
    /// repeated pair is a repeated neighbour (harmless to the searches).
    #[must_use]
    pub fn from_edges<I>(n: usize, pairs: I) -> Graph
    where
        I: IntoIterator<Item = (usize, usize)>,
        I::IntoIter: Clone,
    {
        let fits = |v: usize| v < n && u32::try_from(v).is_ok();
        let kept = |&(u, v): &(usize, usize)| u != v && fits(u) && fits(v);
        let pairs = pairs.into_iter();
        let mut start = vec![0usize; n + 1];
        for (u, v) in pairs.clone().filter(kept) {
            start[u + 1] += 1;
            start[v + 1] += 1;
        }
        for v in 0..n {
            start[v + 1] += start[v];
        }
        let mut fill = start.clone();
        let mut to = vec![0u32; start[n]];
        for (u, v) in pairs.filter(kept) {
            for (a, b) in [(u, v), (v, u)] {
                // `b` fits in u32 (`kept`).
                to[fill[a]] = u32::try_from(b).unwrap_or(u32::MAX);
                fill[a] += 1;
            }
        }
        // Already ascending when the pairs are (the engine's are): one pass each then.
        for v in 0..n {
            to[start[v]..start[v + 1]].sort_unstable();
        }
        Graph { start, to }
    }

    /// Number of vertices.
    #[must_use]
    pub fn vertex_count(&self) -> usize {
        self.start.len() - 1
    }

    /// The neighbours of `v` (none for a `v` that is not a vertex).
    pub fn neighbours(&self, v: usize) -> impl Iterator<Item = usize> + '_ {
        let range = match (self.start.get(v), self.start.get(v + 1)) {
            (Some(&a), Some(&b)) => a..b,
            _ => 0..0,
        };
        self.to[range].iter().map(|&x| x as usize)
    }

    /// Whether u–v is an edge.
    #[must_use]
    pub fn has_edge(&self, u: usize, v: usize) -> bool {
        let (Some(&a), Some(&b)) = (self.start.get(u), self.start.get(u + 1)) else {
            return false;
        };
        u32::try_from(v).is_ok_and(|v| self.to[a..b].binary_search(&v).is_ok())
    }
}
