package dutch

// MatchEdge is an edge I-J of weight W (at most 2^60) for
// MaxWeightMatching.
type MatchEdge struct {
	I, J int
	W    int64
}

// MaxWeightMatching returns mate (-1 for unmatched) of a matching of the nv
// vertices whose weight is the largest among all matchings or, when
// maxCard, among those of maximum cardinality: Edmonds' weighted blossom
// algorithm, O(nv³), exact with integer weights. The other Swiss systems
// that pair by weighted matching (the Burstein system) use it.
func MaxWeightMatching(nv int, edges []MatchEdge, maxCard bool) []int {
	es := make([]wEdge, len(edges))
	for k, e := range edges {
		es[k] = wEdge{i: e.I, j: e.J, w: e.W}
	}
	return maxWeightMatching(nv, es, maxCard)
}
