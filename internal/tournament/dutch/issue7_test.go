package dutch

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// TestBbpIssue7 is bbpPairings' test issue_7: a 60-player event after 14
// of 15 rounds (testdata/bbp-issue-7.trf is the test's input,
// test/tests/issue_7.input in the BieremaBoyzProgramming/bbpPairings
// repository, and want its issue_7.output.expected, what that FIDE-endorsed
// program prints with -p). The four lowest boards depend on C7 and C8
// counting the next bracket's pairs within complete pairings of the round:
// counted on the next bracket alone they were 34-58, 41-50, 53-56 and
// 59-43.
func TestBbpIssue7(t *testing.T) {
	in, err := readTRF(fixture(t, "bbp-issue-7.trf"), 15)
	if err != nil {
		t.Fatal(err)
	}
	in.InitialColour = Black // player 1 had Black in round 1 (E.5)
	p, st, err := PairRoundStats(in)
	if err != nil {
		t.Fatal(err)
	}
	want := "30\n1 15\n3 2\n11 17\n7 10\n8 14\n4 6\n5 12\n9 16\n13 25\n24 22\n18 29\n20 23\n19 33\n21 38\n39 26\n" +
		"28 36\n31 40\n37 35\n44 46\n30 32\n27 48\n47 42\n51 55\n34 50\n49 45\n53 58\n41 59\n56 43\n60 52\n54 57\n"
	if got := Format(p); got != want {
		t.Errorf("got\n%swant\n%s", got, want)
	}
	if st.BudgetHits > 0 || st.C7Approx > 0 {
		t.Errorf("%d searches cut by the budget, %d C7/C8 values not within complete pairings", st.BudgetHits, st.C7Approx)
	}
	t.Logf("%d downfloater sets by matching, %d searches bounded", st.ExactC7, st.BestC7)
}

// C7 and C8 against a brute force: for every bracket of random events and
// sets of its players floating down, actualC7 is the best, over every
// complete pairing of the downfloaters and the lower players, of the next
// bracket's pairs and then its PSD.
func TestNextBracketWithinCompletePairings(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		n := rapid.IntRange(7, 13).Draw(rt, "players")
		seed := rapid.Uint64().Draw(rt, "seed")
		r := rand.New(rand.NewPCG(seed, 11))
		_, err := runSim(n, 6, r, 20, func(round int, in Input, pr Pairing) error {
			e := prepared(in)
			var groups [][]int
			for i := range e.ps {
				if i == 0 || e.ps[i].score != e.ps[i-1].score {
					groups = append(groups, nil)
				}
				groups[len(groups)-1] = append(groups[len(groups)-1], i)
			}
			for g := 0; g+2 < len(groups); g++ {
				var lower []int
				for _, h := range groups[g+1:] {
					lower = append(lower, h...)
				}
				c := &bctx{e: e, res: groups[g], lower: lower, nextRes: groups[g+1], c7: true, memo7: map[string][]int{}, mmNext: -1}
				c.resetVector()
				// Every set of this bracket's players, and of the one above.
				pool := groups[g]
				if g > 0 {
					pool = append(slices.Clone(groups[g-1]), pool...)
				}
				for mask := 1; mask < 1<<min(len(pool), 10); mask++ {
					var d []int
					for i, x := range pool {
						if mask&(1<<i) != 0 {
							d = append(d, x)
						}
					}
					if !e.completable(append(slices.Clone(d), lower...)) {
						continue
					}
					got, want := c.actualC7(d), bruteC7(c, d)
					if !slices.Equal(got, want) {
						rt.Fatalf("round %d, bracket %d, down %v: got %v, best %v", round, e.ps[groups[g][0]].score, d, got, want)
					}
				}
			}
			return nil
		})
		if err != nil {
			rt.Fatal(err)
		}
	})
}

// bruteC7 enumerates the complete pairings of d and the lower players.
func bruteC7(c *bctx, d []int) []int {
	e := c.e
	ds := c.sortDown(d)
	isD := map[int]bool{}
	for _, x := range ds {
		isD[x] = true
	}
	inN := map[int]bool{}
	for _, x := range append(slices.Clone(ds), c.nextRes...) {
		inN[x] = true
	}
	rest := append(slices.Clone(ds), c.lower...)
	used := make([]bool, len(rest))
	paired := map[int]bool{}
	var best []int
	var rec func(p, byes int)
	rec = func(p, byes int) {
		i := 0
		for i < len(rest) && used[i] {
			i++
		}
		if i == len(rest) {
			pd := make([]bool, len(ds))
			for k, x := range ds {
				pd[k] = paired[x]
			}
			if part := c.c7Part(ds, pd, p); best == nil || less(part, best) {
				best = part
			}
			return
		}
		used[i] = true
		a := rest[i]
		if byes == 0 && len(rest)%2 == 1 && e.ps[a].byeOK {
			rec(p, 1)
		}
		for j := i + 1; j < len(rest); j++ {
			b := rest[j]
			if used[j] || !e.compat[a][b] {
				continue
			}
			used[j] = true
			internal := inN[a] && inN[b] && !(isD[a] && isD[b])
			add := 0
			if internal {
				add = 1
				paired[a], paired[b] = isD[a], isD[b]
			}
			rec(p+add, byes)
			delete(paired, a)
			delete(paired, b)
			used[j] = false
		}
		used[i] = false
	}
	rec(0, 0)
	return best
}

// With the round's budget for those matchings spent, C7/C8 keep the next
// bracket's own values, and Stats says so: issue_7's round then pairs its
// four lowest boards as before.
func TestC7BudgetSpentIsReported(t *testing.T) {
	in, err := readTRF(fixture(t, "bbp-issue-7.trf"), 15)
	if err != nil {
		t.Fatal(err)
	}
	in.InitialColour = Black
	e := prepared(in)
	e.c7Work = 0
	pairs, _, err := e.run()
	if err != nil {
		t.Fatal(err)
	}
	if e.st.C7Approx == 0 || e.st.ExactC7 != 0 {
		t.Errorf("stats %+v: want C7Approx > 0 and no exact C7", *e.st)
	}
	got := Format(Pairing{Pairs: e.boards(pairs)})
	if !strings.Contains(got, "\n34 58\n41 50\n") {
		t.Errorf("got\n%s", got)
	}
}
