package dutch

import (
	"sort"
	"strconv"
	"strings"
)

// maxMatching is Edmonds' blossom algorithm for a maximum cardinality
// matching of a general graph; edge(i, j) says whether i and j may be paired.
// It returns mate (-1 for unmatched) and the matching's size.
func maxMatching(n int, edge func(i, j int) bool) ([]int, int) {
	return maxMatchingFrom(n, edge, nil)
}

// maxMatchingFrom is maxMatching starting from the matching init (mate
// form, nil for none): augmenting paths never uncover a vertex, so every
// vertex init matches stays matched.
func maxMatchingFrom(n int, edge func(i, j int) bool, init []int) ([]int, int) {
	mate := make([]int, n)
	for i := range mate {
		mate[i] = -1
	}
	size := 0
	for i, j := range init {
		mate[i] = j
		if j > i {
			size++
		}
	}
	// Greedy start: most vertices are matched without any search.
	for i := 0; i < n; i++ {
		if mate[i] != -1 {
			continue
		}
		for j := i + 1; j < n; j++ {
			if mate[j] == -1 && edge(i, j) {
				mate[i], mate[j] = j, i
				size++
				break
			}
		}
	}
	s := &blossomSearch{n: n, edge: edge, mate: mate,
		p: make([]int, n), base: make([]int, n), used: make([]bool, n),
		blossom: make([]bool, n), inPath: make([]bool, n), q: make([]int, 0, n)}
	p := s.p
	for v := 0; v < n; v++ {
		if mate[v] != -1 {
			continue
		}
		u := s.findPath(v)
		if u == -1 {
			continue
		}
		size++
		for u != -1 {
			pv := p[u]
			ppv := mate[pv]
			mate[u], mate[pv] = pv, u
			u = ppv
		}
	}
	return mate, size
}

// blossomSearch is the state of maxMatchingFrom's search for augmenting
// paths: p the tree's parents, base each vertex's blossom base.
type blossomSearch struct {
	n                     int
	edge                  func(i, j int) bool
	mate, p, base         []int
	used, blossom, inPath []bool
	q                     []int
}

// lca is the lowest common ancestor of a and b's blossoms in the tree.
func (s *blossomSearch) lca(a, b int) int {
	base, mate, p, inPath := s.base, s.mate, s.p, s.inPath
	for i := range inPath {
		inPath[i] = false
	}
	for {
		a = base[a]
		inPath[a] = true
		if mate[a] == -1 {
			break
		}
		a = p[mate[a]]
	}
	for {
		b = base[b]
		if inPath[b] {
			return b
		}
		b = p[mate[b]]
	}
}

// markPath marks the blossoms on the path from v to the base b.
func (s *blossomSearch) markPath(v, b, child int) {
	base, mate, p, blossom := s.base, s.mate, s.p, s.blossom
	for base[v] != b {
		blossom[base[v]], blossom[base[mate[v]]] = true, true
		p[v] = child
		child = mate[v]
		v = p[mate[v]]
	}
}

// findPath searches an augmenting path from root and returns its other
// end, -1 for none.
func (s *blossomSearch) findPath(root int) int {
	n, edge, mate, p, base, used := s.n, s.edge, s.mate, s.p, s.base, s.used
	for i := 0; i < n; i++ {
		used[i], p[i], base[i] = false, -1, i
	}
	used[root] = true
	s.q = append(s.q[:0], root)
	for h := 0; h < len(s.q); h++ {
		v := s.q[h]
		for to := 0; to < n; to++ {
			if to == v || !edge(v, to) || base[v] == base[to] || mate[v] == to {
				continue
			}
			if to == root || (mate[to] != -1 && p[mate[to]] != -1) {
				s.contract(v, to)
			} else if p[to] == -1 {
				p[to] = v
				if mate[to] == -1 {
					return to
				}
				used[mate[to]] = true
				s.q = append(s.q, mate[to])
			}
		}
	}
	return -1
}

// contract shrinks the blossom that the edge v–to closes into its base,
// and queues its vertices.
func (s *blossomSearch) contract(v, to int) {
	cb := s.lca(v, to)
	for i := range s.blossom {
		s.blossom[i] = false
	}
	s.markPath(v, cb, to)
	s.markPath(to, cb, v)
	for i := 0; i < s.n; i++ {
		if s.blossom[s.base[i]] {
			s.base[i] = cb
			if !s.used[i] {
				s.used[i] = true
				s.q = append(s.q, i)
			}
		}
	}
}

func key(set []int) string {
	s := append([]int(nil), set...)
	sort.Ints(s)
	var b strings.Builder
	for _, x := range s {
		b.WriteString(strconv.Itoa(x))
		b.WriteByte(',')
	}
	return b.String()
}

// completable is the completion criterion C4 applied to the players still
// to be paired: they can all be paired under C1 and C3, but for one who may
// receive the bye (C2) when their number is odd.
func (e *engine) completable(rest []int) bool {
	k := key(rest)
	if v, ok := e.memoC[k]; ok {
		return v
	}
	if e.st != nil {
		e.st.Completions++
	}
	n := len(rest)
	dummy := -1
	if n%2 == 1 {
		dummy = n
		n++
	}
	edge := func(i, j int) bool {
		if i == dummy {
			return e.ps[rest[j]].byeOK
		}
		if j == dummy {
			return e.ps[rest[i]].byeOK
		}
		return e.compat[rest[i]][rest[j]]
	}
	_, size := maxMatching(n, edge)
	ok := 2*size == n
	e.memoC[k] = ok
	return ok
}

// bipartiteGreedy returns how many of left (in the order given) can be
// matched to distinct members of right, taking each in turn when it can
// still be matched (a transversal matroid: the greedy choice is optimal).
func (e *engine) bipartiteGreedy(left, right []int) (chosen []bool, n int) {
	chosen, n, _ = e.bipartiteGreedyMatch(left, right)
	return chosen, n
}

// bipartiteGreedyMatch is bipartiteGreedy that also returns the matching:
// matchR[r] is the index in left of right[r]'s partner, -1.
func (e *engine) bipartiteGreedyMatch(left, right []int) (chosen []bool, n int, matchR []int) {
	matchR = make([]int, len(right))
	for i := range matchR {
		matchR[i] = -1
	}
	chosen = make([]bool, len(left))
	var seen []bool
	var try func(l int) bool
	try = func(l int) bool {
		for r := range right {
			if seen[r] || !e.compat[left[l]][right[r]] {
				continue
			}
			seen[r] = true
			if matchR[r] == -1 || try(matchR[r]) {
				matchR[r] = l
				return true
			}
		}
		return false
	}
	for l := range left {
		seen = make([]bool, len(right))
		if try(l) {
			chosen[l] = true
			n++
		}
	}
	return chosen, n, matchR
}

// restrictBye keeps the pairing-allocated bye for the players of the lowest
// score that can receive it (C2) and still let the round be completed (C4),
// as the endorsed programs apply the 2025 rules: the bye's receiver has the
// lowest possible score, before the brackets' own criteria.
func (e *engine) restrictBye(all []int) {
	if len(all)%2 == 0 {
		return
	}
	var scores []int
	for i, p := range e.ps {
		if p.byeOK && (len(scores) == 0 || scores[len(scores)-1] != p.score) {
			scores = append(scores, e.ps[i].score)
		}
	}
	ok := make([]bool, len(e.ps))
	for i, p := range e.ps {
		ok[i] = p.byeOK
	}
	// Scores descend with the index, so try them from the lowest up.
	for k := len(scores) - 1; k >= 0; k-- {
		for i := range e.ps {
			e.ps[i].byeOK = ok[i] && e.ps[i].score <= scores[k]
		}
		clear(e.memoC)
		if e.completable(all) {
			e.byeScore = scores[k]
			return
		}
	}
	for i := range e.ps {
		e.ps[i].byeOK = ok[i]
	}
	clear(e.memoC)
}
