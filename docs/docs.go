// Package docs holds the documents the binary serves to its users, as
// they are in this directory: the API's reference (api.md) is the page
// /api. The other documents are for the people who run and develop the
// server and stay in the repository.
package docs

import _ "embed"

//go:embed api.md
var api string

// API returns the API's reference, Markdown (api.md).
func API() string { return api }
