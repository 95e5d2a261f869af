// Actions are pinned by commit (a tag can be moved), the release in the comment for Dependabot
// and for readers; test/cli/workflows.test.ts holds every workflow we ship (this repository's and
// each one `clusterset init` writes) to one pin per action.
export const CHECKOUT = 'actions/checkout@3d3c42e5aac5ba805825da76410c181273ba90b1 # v7.0.1';
export const SETUP_NODE = 'actions/setup-node@820762786026740c76f36085b0efc47a31fe5020 # v7.0.0';
