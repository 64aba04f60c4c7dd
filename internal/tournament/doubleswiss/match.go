package doubleswiss

// matcher finds maximum matchings in general graphs by Edmonds' blossom
// algorithm (augmenting paths, odd cycles shrunk to their base), after a
// greedy start. The edges are asked of ok as needed, never listed: the
// graphs are nearly complete (few players have met), so the greedy start
// pairs almost everyone at once and a check costs about n calls. Its
// buffers are reused between calls: a bracket's search asks it many times.
type matcher struct {
	n                 int
	ok                func(i, j int) bool
	match, p, base, q []int
	used, blossom     []bool
	mark              []bool // lca's, apart from the search's used
}

func (m *matcher) reset(n int) {
	m.n = n
	if cap(m.match) < n {
		m.match = make([]int, n)
		m.p = make([]int, n)
		m.base = make([]int, n)
		m.q = make([]int, n)
		m.used = make([]bool, n)
		m.blossom = make([]bool, n)
		m.mark = make([]bool, n)
	}
	m.match, m.p, m.base, m.q = m.match[:n], m.p[:n], m.base[:n], m.q[:n]
	m.used, m.blossom, m.mark = m.used[:n], m.blossom[:n], m.mark[:n]
}

// perfect reports whether the graph on n vertices whose edges ok gives has
// a perfect matching.
func (m *matcher) perfect(n int, ok func(i, j int) bool) bool {
	if n%2 == 1 {
		return false
	}
	if n == 0 {
		return true
	}
	m.reset(n)
	m.ok = ok
	for i := range n {
		m.match[i] = -1
	}
	// Greedy first; augmenting paths fix the rest.
	for i := range n {
		if m.match[i] >= 0 {
			continue
		}
		for j := i + 1; j < n; j++ {
			if m.match[j] < 0 && ok(i, j) {
				m.match[i], m.match[j] = j, i
				break
			}
		}
	}
	for v := range n {
		if m.match[v] < 0 && !m.augment(v) {
			return false
		}
	}
	return true
}

func (m *matcher) lca(a, b int) int {
	for i := range m.n {
		m.mark[i] = false
	}
	for {
		a = m.base[a]
		m.mark[a] = true
		if m.match[a] < 0 {
			break
		}
		a = m.p[m.match[a]]
	}
	for {
		b = m.base[b]
		if m.mark[b] {
			return b
		}
		b = m.p[m.match[b]]
	}
}

func (m *matcher) markPath(v, b, child int) {
	for m.base[v] != b {
		m.blossom[m.base[v]] = true
		m.blossom[m.base[m.match[v]]] = true
		m.p[v] = child
		child = m.match[v]
		v = m.p[m.match[v]]
	}
}

// augment searches an augmenting path from the free vertex root and flips
// it; it reports whether it found one.
func (m *matcher) augment(root int) bool {
	for i := range m.n {
		m.used[i] = false
		m.p[i] = -1
		m.base[i] = i
	}
	m.used[root] = true
	qh, qt := 0, 0
	m.q[qt] = root
	qt++
	for qh < qt {
		v := m.q[qh]
		qh++
		for to := range m.n {
			if to == v || m.base[v] == m.base[to] || m.match[v] == to || !m.ok(v, to) {
				continue
			}
			if to == root || (m.match[to] >= 0 && m.p[m.match[to]] >= 0) {
				cur := m.lca(v, to)
				for i := range m.n {
					m.blossom[i] = false
				}
				m.markPath(v, cur, to)
				m.markPath(to, cur, v)
				for i := range m.n {
					if m.blossom[m.base[i]] {
						m.base[i] = cur
						if !m.used[i] {
							m.used[i] = true
							m.q[qt] = i
							qt++
						}
					}
				}
			} else if m.p[to] < 0 {
				m.p[to] = v
				if m.match[to] < 0 {
					// Flip the path ending at to.
					for u := to; u >= 0; {
						pv := m.p[u]
						ppv := m.match[pv]
						m.match[u], m.match[pv] = pv, u
						u = ppv
					}
					return true
				}
				m.used[m.match[to]] = true
				m.q[qt] = m.match[to]
				qt++
			}
		}
	}
	return false
}
