//! GitLab's reading of JUnit reports, ported from `lib/gitlab/ci/parsers/test/junit.rb`,
//! `lib/gitlab/ci/reports/test_case.rb`, `test_suite.rb` and `test_suite_comparer.rb`: every
//! `testcase` under `testsuites`/`testsuite` (its suite's name with it), its status from its
//! first child among `failure`, `error`, `skipped`; its key `suite_classname_name` (GitLab
//! hashes it with SHA-256; the string itself compares the same); cases grouped by status and
//! key, a later one with an existing key replacing it (a duplicate); and the comparison of a
//! merge request's report (head) with its target's (base).

use std::collections::{BTreeMap, BTreeSet};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TestCase {
    pub suite_name: String,
    pub classname: String,
    pub name: String,
    pub status: &'static str,
}

impl TestCase {
    pub fn key(&self) -> String {
        format!("{}_{}_{}", self.suite_name, self.classname, self.name)
    }
}

/// What GitLab keeps of a report: the cases by status and key, and the duplicates it met.
#[derive(Debug, Default)]
pub struct TestSuite {
    pub test_cases: BTreeMap<&'static str, BTreeMap<String, TestCase>>,
    pub duplicate_cases: Vec<TestCase>,
}

impl TestSuite {
    fn add_test_case(&mut self, case: TestCase) {
        let by_key = self.test_cases.entry(case.status).or_default();
        if by_key.contains_key(&case.key()) {
            self.duplicate_cases.push(case.clone());
        }
        by_key.insert(case.key(), case);
    }

    pub fn keys(&self, status: &str) -> BTreeSet<String> {
        self.test_cases
            .get(status)
            .map(|cases| cases.keys().cloned().collect())
            .unwrap_or_default()
    }

    pub fn count(&self, status: &str) -> usize {
        self.test_cases.get(status).map_or(0, BTreeMap::len)
    }
}

/// Parses a JUnit report as GitLab does.
pub fn parse(xml: &str) -> TestSuite {
    let document = roxmltree::Document::parse(xml).expect("GitLab parses the XML");
    let mut suite = TestSuite::default();
    let root = document.root_element();
    let visit = |node: roxmltree::Node, suite_name: &str, suite: &mut TestSuite| {
        for case in node.children().filter(|n| n.has_tag_name("testcase")) {
            let child = |name: &str| case.children().any(|n| n.has_tag_name(name));
            let status = if child("failure") {
                "failed"
            } else if child("error") {
                "error"
            } else if child("skipped") {
                "skipped"
            } else {
                "success"
            };
            suite.add_test_case(TestCase {
                suite_name: suite_name.to_string(),
                classname: case.attribute("classname").unwrap_or("").to_string(),
                name: case.attribute("name").unwrap_or("").to_string(),
                status,
            });
        }
    };
    // One top-level `testsuites`, then `testsuite`s, nested or not.
    fn suites<'a>(node: roxmltree::Node<'a, 'a>, out: &mut Vec<roxmltree::Node<'a, 'a>>) {
        for child in node.children().filter(|n| n.has_tag_name("testsuite")) {
            out.push(child);
            suites(child, out);
        }
    }
    let mut all = Vec::new();
    suites(root, &mut all);
    if root.has_tag_name("testsuite") {
        all.insert(0, root);
    }
    for node in all {
        let name = node.attribute("name").unwrap_or("").to_string();
        visit(node, &name, &mut suite);
    }
    suite
}

/// What a merge request's test report widget says: GitLab's `TestSuiteComparer`.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Comparison {
    pub new_failures: BTreeSet<String>,
    pub existing_failures: BTreeSet<String>,
    pub resolved_failures: BTreeSet<String>,
    pub new_errors: BTreeSet<String>,
    pub resolved_errors: BTreeSet<String>,
}

pub fn compare(base: &TestSuite, head: &TestSuite) -> Comparison {
    let base_failed = base.keys("failed");
    let base_error = base.keys("error");
    let head_failed = head.keys("failed");
    let head_error = head.keys("error");
    let head_success = head.keys("success");
    Comparison {
        new_failures: head_failed.difference(&base_failed).cloned().collect(),
        existing_failures: head_failed.intersection(&base_failed).cloned().collect(),
        resolved_failures: head_success.intersection(&base_failed).cloned().collect(),
        new_errors: head_error.difference(&base_error).cloned().collect(),
        resolved_errors: head_success.intersection(&base_error).cloned().collect(),
    }
}
