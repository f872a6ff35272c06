//! The consumers of ragcite's CI reports, ported so that tests run their logic on real
//! output: GitHub's fingerprinting of SARIF results, GitLab's reading and comparing of JUnit
//! reports, and the JUnit schema of Jenkins' xUnit plugin.

pub mod github;
pub mod gitlab;
pub mod jenkins;
