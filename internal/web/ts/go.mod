// The page scripts' TypeScript and its npm packages are no Go code: this
// file makes the folder a module of its own, so that ./... of the toguz
// module leaves out node_modules (some npm packages ship Go files).
module toguz.invalid/webts

go 1.26
