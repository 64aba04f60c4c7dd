package dubov

// wEdge is an edge i-j of weight w for maxWeightMatching.
type wEdge struct {
	i, j int
	w    wide
	w2   wide // 2w, for slack
}

// maxWeightMatching is Edmonds' weighted blossom algorithm in Galil's
// O(n³) primal-dual form: it returns mate (-1 for unmatched) of a matching
// of the nv vertices whose weight is the largest among all matchings, or,
// when maxCard, among the matchings of maximum cardinality. The weights are
// wide integers (every dual stays an integer: the slack between two
// S-vertices is even), so the arithmetic is exact. It is the Dutch
// package's algorithm with wide weights: a Dubov weight holds every
// criterion of a pair as a field (engine.go, layout).
func maxWeightMatching(nv int, edges []wEdge, maxCard bool) []int {
	m := &wm{nv: nv, edges: edges}
	m.run(maxCard)
	mate := make([]int, nv)
	for v := range mate {
		mate[v] = -1
		if m.mate[v] >= 0 {
			mate[v] = m.endpoint[m.mate[v]]
		}
	}
	return mate
}

// wm holds the algorithm's state. Vertices are 0..nv-1, blossoms nv..2nv-1;
// an edge k has the endpoints 2k (its i) and 2k+1 (its j).
type wm struct {
	nv       int
	edges    []wEdge
	endpoint []int
	neighb   [][]int // remote endpoints of the edges at each vertex
	mate     []int   // the remote endpoint of the matched edge, -1

	label      []int // 0 free, 1 S, 2 T (5: marked by scanBlossom)
	labelEnd   []int // endpoint through which the label came, -1
	inBlossom  []int // top-level blossom of each vertex
	parent     []int
	childs     [][]int
	base       []int
	endps      [][]int
	bestEdge   []int
	bestEdges  [][]int
	haveBest   []bool // bestEdges[b] is set
	unused     []int
	dual       []wide
	allowEdge  []bool
	queue      []int
	bestEdgeTo []int
}

func (m *wm) slack(k int) wide {
	e := m.edges[k]
	return m.dual[e.i].add(m.dual[e.j]).sub(e.w2)
}

func (m *wm) leaves(b int, f func(v int)) {
	if b < m.nv {
		f(b)
		return
	}
	for _, c := range m.childs[b] {
		m.leaves(c, f)
	}
}

func (m *wm) assignLabel(w, t, p int) {
	b := m.inBlossom[w]
	m.label[w], m.label[b] = t, t
	m.labelEnd[w], m.labelEnd[b] = p, p
	m.bestEdge[w], m.bestEdge[b] = -1, -1
	if t == 1 {
		m.leaves(b, func(v int) { m.queue = append(m.queue, v) })
		return
	}
	base := m.base[b]
	m.assignLabel(m.endpoint[m.mate[base]], 1, m.mate[base]^1)
}

// scanBlossom traces back from v and w to a common ancestor (a new
// blossom's base) or returns -1 when the paths reach two roots (an
// augmenting path).
func (m *wm) scanBlossom(v, w int) int {
	var path []int
	base := -1
	for v != -1 || w != -1 {
		b := m.inBlossom[v]
		if m.label[b]&4 != 0 {
			base = m.base[b]
			break
		}
		path = append(path, b)
		m.label[b] = 5
		if m.labelEnd[b] == -1 {
			v = -1
		} else {
			v = m.endpoint[m.labelEnd[b]]
			b = m.inBlossom[v]
			v = m.endpoint[m.labelEnd[b]]
		}
		if w != -1 {
			v, w = w, v
		}
	}
	for _, b := range path {
		m.label[b] = 1
	}
	return base
}

func (m *wm) addBlossom(base, k int) {
	v, w := m.edges[k].i, m.edges[k].j
	bb, bv, bw := m.inBlossom[base], m.inBlossom[v], m.inBlossom[w]
	b := m.unused[len(m.unused)-1]
	m.unused = m.unused[:len(m.unused)-1]
	m.base[b] = base
	m.parent[b] = -1
	m.parent[bb] = b
	var path, endps []int
	for bv != bb {
		m.parent[bv] = b
		path = append(path, bv)
		endps = append(endps, m.labelEnd[bv])
		v = m.endpoint[m.labelEnd[bv]]
		bv = m.inBlossom[v]
	}
	path = append(path, bb)
	reverse(path)
	reverse(endps)
	endps = append(endps, 2*k)
	for bw != bb {
		m.parent[bw] = b
		path = append(path, bw)
		endps = append(endps, m.labelEnd[bw]^1)
		w = m.endpoint[m.labelEnd[bw]]
		bw = m.inBlossom[w]
	}
	m.childs[b], m.endps[b] = path, endps
	m.label[b] = 1
	m.labelEnd[b] = m.labelEnd[bb]
	m.dual[b] = wide{}
	m.leaves(b, func(v int) {
		if m.label[m.inBlossom[v]] == 2 {
			m.queue = append(m.queue, v)
		}
		m.inBlossom[v] = b
	})
	to := m.bestEdgeTo
	for i := range to {
		to[i] = -1
	}
	// consider keeps, per neighbouring S-blossom, the least-slack edge to it.
	consider := func(k int) {
		j := m.edges[k].j
		if m.inBlossom[j] == b {
			j = m.edges[k].i
		}
		bj := m.inBlossom[j]
		if bj != b && m.label[bj] == 1 && (to[bj] == -1 || m.slack(k).less(m.slack(to[bj]))) {
			to[bj] = k
		}
	}
	for _, c := range path {
		if m.haveBest[c] {
			for _, k := range m.bestEdges[c] {
				consider(k)
			}
		} else {
			m.leaves(c, func(v int) {
				for _, p := range m.neighb[v] {
					consider(p / 2)
				}
			})
		}
		m.bestEdges[c], m.haveBest[c] = nil, false
		m.bestEdge[c] = -1
	}
	var best []int
	for _, k := range to {
		if k != -1 {
			best = append(best, k)
		}
	}
	m.bestEdges[b], m.haveBest[b] = best, true
	m.bestEdge[b] = -1
	for _, k := range best {
		if m.bestEdge[b] == -1 || m.slack(k).less(m.slack(m.bestEdge[b])) {
			m.bestEdge[b] = k
		}
	}
}

func reverse(s []int) {
	for i, j := 0, len(s)-1; i < j; i, j = i+1, j-1 {
		s[i], s[j] = s[j], s[i]
	}
}

// at indexes a blossom's children cyclically (j may be negative).
func at(s []int, j int) int {
	n := len(s)
	return s[((j%n)+n)%n]
}

func indexOf(s []int, x int) int {
	for i, y := range s {
		if y == x {
			return i
		}
	}
	return -1
}

func (m *wm) expandBlossom(b int, endStage bool) {
	for _, s := range m.childs[b] {
		m.parent[s] = -1
		switch {
		case s < m.nv:
			m.inBlossom[s] = s
		case endStage && m.dual[s].zero():
			m.expandBlossom(s, endStage)
		default:
			m.leaves(s, func(v int) { m.inBlossom[v] = s })
		}
	}
	if !endStage && m.label[b] == 2 {
		// The T-blossom's children on the even path from its entry to its
		// base keep alternating labels; the others become free.
		ch, ep := m.childs[b], m.endps[b]
		entry := m.inBlossom[m.endpoint[m.labelEnd[b]^1]]
		j := indexOf(ch, entry)
		var jstep, trick int
		if j&1 != 0 {
			j -= len(ch)
			jstep, trick = 1, 0
		} else {
			jstep, trick = -1, 1
		}
		p := m.labelEnd[b]
		for j != 0 {
			m.label[m.endpoint[p^1]] = 0
			m.label[m.endpoint[at(ep, j-trick)^trick^1]] = 0
			m.assignLabel(m.endpoint[p^1], 2, p)
			m.allowEdge[at(ep, j-trick)/2] = true
			j += jstep
			p = at(ep, j-trick) ^ trick
			m.allowEdge[p/2] = true
			j += jstep
		}
		bv := at(ch, j)
		m.label[m.endpoint[p^1]], m.label[bv] = 2, 2
		m.labelEnd[m.endpoint[p^1]], m.labelEnd[bv] = p, p
		m.bestEdge[bv] = -1
		j += jstep
		for at(ch, j) != entry {
			bv := at(ch, j)
			if m.label[bv] == 1 {
				j += jstep
				continue
			}
			found := -1
			m.leaves(bv, func(v int) {
				if found == -1 && m.label[v] != 0 {
					found = v
				}
			})
			if found != -1 {
				m.label[found] = 0
				m.label[m.endpoint[m.mate[m.base[bv]]]] = 0
				m.assignLabel(found, 2, m.labelEnd[found])
			}
			j += jstep
		}
	}
	m.label[b], m.labelEnd[b] = -1, -1
	m.childs[b], m.endps[b] = nil, nil
	m.base[b] = -1
	m.bestEdges[b], m.haveBest[b] = nil, false
	m.bestEdge[b] = -1
	m.unused = append(m.unused, b)
}

// augmentBlossom swaps the matched and unmatched edges of blossom b along
// the even path from v to its base, so that v becomes the base.
func (m *wm) augmentBlossom(b, v int) {
	t := v
	for m.parent[t] != b {
		t = m.parent[t]
	}
	if t >= m.nv {
		m.augmentBlossom(t, v)
	}
	ch, ep := m.childs[b], m.endps[b]
	i := indexOf(ch, t)
	j := i
	var jstep, trick int
	if i&1 != 0 {
		j -= len(ch)
		jstep, trick = 1, 0
	} else {
		jstep, trick = -1, 1
	}
	for j != 0 {
		j += jstep
		t = at(ch, j)
		p := at(ep, j-trick) ^ trick
		if t >= m.nv {
			m.augmentBlossom(t, m.endpoint[p])
		}
		j += jstep
		t = at(ch, j)
		if t >= m.nv {
			m.augmentBlossom(t, m.endpoint[p^1])
		}
		m.mate[m.endpoint[p]] = p ^ 1
		m.mate[m.endpoint[p^1]] = p
	}
	m.childs[b] = append(append([]int(nil), ch[i:]...), ch[:i]...)
	m.endps[b] = append(append([]int(nil), ep[i:]...), ep[:i]...)
	m.base[b] = m.base[m.childs[b][0]]
}

func (m *wm) augmentMatching(k int) {
	for _, sp := range [2][2]int{{m.edges[k].i, 2*k + 1}, {m.edges[k].j, 2 * k}} {
		s, p := sp[0], sp[1]
		for {
			bs := m.inBlossom[s]
			if bs >= m.nv {
				m.augmentBlossom(bs, s)
			}
			m.mate[s] = p
			if m.labelEnd[bs] == -1 {
				break
			}
			t := m.endpoint[m.labelEnd[bs]]
			bt := m.inBlossom[t]
			s = m.endpoint[m.labelEnd[bt]]
			j := m.endpoint[m.labelEnd[bt]^1]
			if bt >= m.nv {
				m.augmentBlossom(bt, j)
			}
			m.mate[j] = m.labelEnd[bt]
			p = m.labelEnd[bt] ^ 1
		}
	}
}

// run is the algorithm's main loop: stages of labelling, blossoms and dual
// updates over the state of m. It stays one function, as Galil gives it,
// because its steps share the loop's state and split apart they would be
// harder to check against the algorithm.
func (m *wm) run(maxCard bool) {
	nv := m.nv
	if nv == 0 || len(m.edges) == 0 {
		m.mate = make([]int, nv)
		for i := range m.mate {
			m.mate[i] = -1
		}
		return
	}
	var maxW wide
	m.endpoint = make([]int, 2*len(m.edges))
	m.neighb = make([][]int, nv)
	for k, e := range m.edges {
		m.edges[k].w2 = e.w.add(e.w)
		if maxW.less(e.w) {
			maxW = e.w
		}
		m.endpoint[2*k], m.endpoint[2*k+1] = e.i, e.j
		m.neighb[e.i] = append(m.neighb[e.i], 2*k+1)
		m.neighb[e.j] = append(m.neighb[e.j], 2*k)
	}
	m.mate = make([]int, nv)
	m.label = make([]int, 2*nv)
	m.labelEnd = make([]int, 2*nv)
	m.inBlossom = make([]int, nv)
	m.parent = make([]int, 2*nv)
	m.childs = make([][]int, 2*nv)
	m.base = make([]int, 2*nv)
	m.endps = make([][]int, 2*nv)
	m.bestEdge = make([]int, 2*nv)
	m.bestEdges = make([][]int, 2*nv)
	m.haveBest = make([]bool, 2*nv)
	m.dual = make([]wide, 2*nv)
	m.allowEdge = make([]bool, len(m.edges))
	m.bestEdgeTo = make([]int, 2*nv)
	for v := range nv {
		m.mate[v] = -1
		m.inBlossom[v] = v
		m.base[v] = v
		m.dual[v] = maxW
	}
	for b := range 2 * nv {
		m.labelEnd[b] = -1
		m.parent[b] = -1
		if b >= nv {
			m.base[b] = -1
			m.unused = append(m.unused, b)
		}
	}
	for range nv {
		for b := range 2 * nv {
			m.label[b] = 0
			m.bestEdge[b] = -1
			if b >= nv {
				m.bestEdges[b], m.haveBest[b] = nil, false
			}
		}
		for k := range m.allowEdge {
			m.allowEdge[k] = false
		}
		m.queue = m.queue[:0]
		for v := range nv {
			if m.mate[v] == -1 && m.label[m.inBlossom[v]] == 0 {
				m.assignLabel(v, 1, -1)
			}
		}
		augmented := false
		for {
			for len(m.queue) > 0 && !augmented {
				v := m.queue[len(m.queue)-1]
				m.queue = m.queue[:len(m.queue)-1]
				for _, p := range m.neighb[v] {
					k, w := p/2, m.endpoint[p]
					if m.inBlossom[v] == m.inBlossom[w] {
						continue
					}
					var ks wide
					if !m.allowEdge[k] {
						ks = m.slack(k)
						if !(wide{}).less(ks) {
							m.allowEdge[k] = true
						}
					}
					switch {
					case m.allowEdge[k]:
						switch {
						case m.label[m.inBlossom[w]] == 0:
							m.assignLabel(w, 2, p^1)
						case m.label[m.inBlossom[w]] == 1:
							if base := m.scanBlossom(v, w); base >= 0 {
								m.addBlossom(base, k)
							} else {
								m.augmentMatching(k)
								augmented = true
							}
						case m.label[w] == 0:
							m.label[w] = 2
							m.labelEnd[w] = p ^ 1
						}
					case m.label[m.inBlossom[w]] == 1:
						b := m.inBlossom[v]
						if m.bestEdge[b] == -1 || ks.less(m.slack(m.bestEdge[b])) {
							m.bestEdge[b] = k
						}
					case m.label[w] == 0:
						if m.bestEdge[w] == -1 || ks.less(m.slack(m.bestEdge[w])) {
							m.bestEdge[w] = k
						}
					}
					if augmented {
						break
					}
				}
			}
			if augmented {
				break
			}
			// No augmenting path with the tight edges: change the duals.
			dtype, delta, dedge, dblossom := -1, wide{}, -1, -1
			if !maxCard {
				dtype = 1
				delta = m.dual[0]
				for v := 1; v < nv; v++ {
					if m.dual[v].less(delta) {
						delta = m.dual[v]
					}
				}
			}
			for v := range nv {
				if m.label[m.inBlossom[v]] == 0 && m.bestEdge[v] != -1 {
					if d := m.slack(m.bestEdge[v]); dtype == -1 || d.less(delta) {
						delta, dtype, dedge = d, 2, m.bestEdge[v]
					}
				}
			}
			for b := range 2 * nv {
				if m.parent[b] == -1 && m.label[b] == 1 && m.bestEdge[b] != -1 {
					if d := m.slack(m.bestEdge[b]).half(); dtype == -1 || d.less(delta) {
						delta, dtype, dedge = d, 3, m.bestEdge[b]
					}
				}
			}
			for b := nv; b < 2*nv; b++ {
				if m.base[b] >= 0 && m.parent[b] == -1 && m.label[b] == 2 && (dtype == -1 || m.dual[b].less(delta)) {
					delta, dtype, dblossom = m.dual[b], 4, b
				}
			}
			if dtype == -1 {
				// maxCard and nothing left to do: the optimum is reached.
				dtype = 1
				delta = m.dual[0]
				for v := 1; v < nv; v++ {
					if m.dual[v].less(delta) {
						delta = m.dual[v]
					}
				}
				if delta.less(wide{}) {
					delta = wide{}
				}
			}
			for v := range nv {
				switch m.label[m.inBlossom[v]] {
				case 1:
					m.dual[v] = m.dual[v].sub(delta)
				case 2:
					m.dual[v] = m.dual[v].add(delta)
				}
			}
			for b := nv; b < 2*nv; b++ {
				if m.base[b] >= 0 && m.parent[b] == -1 {
					switch m.label[b] {
					case 1:
						m.dual[b] = m.dual[b].add(delta)
					case 2:
						m.dual[b] = m.dual[b].sub(delta)
					}
				}
			}
			if dtype == 1 {
				break
			}
			switch dtype {
			case 2:
				m.allowEdge[dedge] = true
				i, j := m.edges[dedge].i, m.edges[dedge].j
				if m.label[m.inBlossom[i]] == 0 {
					i = j
				}
				m.queue = append(m.queue, i)
			case 3:
				m.allowEdge[dedge] = true
				m.queue = append(m.queue, m.edges[dedge].i)
			case 4:
				m.expandBlossom(dblossom, false)
			}
		}
		if !augmented {
			break
		}
		for b := nv; b < 2*nv; b++ {
			if m.parent[b] == -1 && m.base[b] >= 0 && m.label[b] == 1 && m.dual[b].zero() {
				m.expandBlossom(b, true)
			}
		}
	}
}
