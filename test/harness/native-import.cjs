// Loaded with Node's own require, so this import() is Node's: the test runner neither sees nor transforms
// the bundle it loads, which runs as built.
module.exports = (url) => import(url);
