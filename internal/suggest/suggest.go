// Package suggest finds the word someone probably meant, for "did you
// mean" in error messages about keys, tables and names.
package suggest

// Nearest returns the candidate closest to s by edit distance, if it is
// close enough to be a slip: at most 2 edits (1 for words of 4 bytes or
// fewer). It returns "" when none is.
func Nearest(s string, candidates []string) string {
	best, bestD := "", 3
	if len(s) <= 4 {
		bestD = 2
	}
	for _, c := range candidates {
		if d := Distance(s, c); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// Distance is the Levenshtein distance between a and b, in bytes. Strings
// over 200 bytes are never near anything (the cost is quadratic).
func Distance(a, b string) int {
	if len(a) > 200 || len(b) > 200 {
		return 1 << 30
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
