package teamswiss

// perfect reports whether the vertices 0..n-1 with the edges ok allows
// have a perfect matching: Edmonds' blossom algorithm for a maximum
// cardinality matching, O(n³). It answers the completion criterion [C3]
// (a legal pairing exists for the teams not yet paired), not which pairing
// is chosen: Article 3.6 defines that by an order, not an optimum.
func perfect(n int, ok func(a, b int) bool) bool {
	if n%2 == 1 {
		return false
	}
	if n == 0 {
		return true
	}
	adj := make([][]int, n)
	for a := range n {
		for b := a + 1; b < n; b++ {
			if ok(a, b) {
				adj[a] = append(adj[a], b)
				adj[b] = append(adj[b], a)
			}
		}
	}
	for a := range n {
		if len(adj[a]) == 0 {
			return false
		}
	}
	m := &blossom{n: n, adj: adj, match: make([]int, n), p: make([]int, n), base: make([]int, n),
		used: make([]bool, n), inBlossom: make([]bool, n), q: make([]int, 0, n)}
	for i := range m.match {
		m.match[i] = -1
	}
	// A greedy start makes most searches short.
	size := 0
	for a := range n {
		if m.match[a] >= 0 {
			continue
		}
		for _, b := range adj[a] {
			if m.match[b] < 0 {
				m.match[a], m.match[b] = b, a
				size++
				break
			}
		}
	}
	for v := 0; v < n && size < n/2; v++ {
		if m.match[v] < 0 {
			if u := m.augment(v); u >= 0 {
				for u >= 0 {
					pv := m.p[u]
					ppv := m.match[pv]
					m.match[u], m.match[pv] = pv, u
					u = ppv
				}
				size++
			}
		}
	}
	return size == n/2
}

type blossom struct {
	n               int
	adj             [][]int
	match, p, base  []int
	used, inBlossom []bool
	q               []int
}

func (m *blossom) lca(a, b int) int {
	seen := make([]bool, m.n)
	for {
		a = m.base[a]
		seen[a] = true
		if m.match[a] < 0 {
			break
		}
		a = m.p[m.match[a]]
	}
	for {
		b = m.base[b]
		if seen[b] {
			return b
		}
		b = m.p[m.match[b]]
	}
}

func (m *blossom) markPath(v, b, child int) {
	for m.base[v] != b {
		m.inBlossom[m.base[v]] = true
		m.inBlossom[m.base[m.match[v]]] = true
		m.p[v] = child
		child = m.match[v]
		v = m.p[m.match[v]]
	}
}

// augment searches an augmenting path from root and returns its free end,
// or -1; p holds the path.
func (m *blossom) augment(root int) int {
	for i := range m.n {
		m.used[i] = false
		m.p[i] = -1
		m.base[i] = i
	}
	m.used[root] = true
	m.q = append(m.q[:0], root)
	for qh := 0; qh < len(m.q); qh++ {
		v := m.q[qh]
		for _, to := range m.adj[v] {
			if m.base[v] == m.base[to] || m.match[v] == to {
				continue
			}
			if to == root || m.match[to] >= 0 && m.p[m.match[to]] >= 0 {
				cur := m.lca(v, to)
				for i := range m.inBlossom {
					m.inBlossom[i] = false
				}
				m.markPath(v, cur, to)
				m.markPath(to, cur, v)
				for i := range m.n {
					if m.inBlossom[m.base[i]] {
						m.base[i] = cur
						if !m.used[i] {
							m.used[i] = true
							m.q = append(m.q, i)
						}
					}
				}
			} else if m.p[to] < 0 {
				m.p[to] = v
				if m.match[to] < 0 {
					return to
				}
				to2 := m.match[to]
				m.used[to2] = true
				m.q = append(m.q, to2)
			}
		}
	}
	return -1
}
