//! The next systems of `testdata/stacks/` (EXPECTED.md, "The next systems"), read as they
//! return: each sample with and without its chunks file, the verdict of every sentence and the
//! status of every chunk as EXPECTED.md gives them. The helpers are [`crate::stacks`]'s.

use crate::stacks::{
    STATUSES, VERDICTS, assert_worked_example, check_json, cited, statuses, strings,
};

fn status(id: &str, status: &str) -> (String, String) {
    (id.to_string(), status.to_string())
}

#[test]
fn cohere_v2_documents_in_the_response_and_the_request() {
    let ids = [
        "eiffel-tower-0",
        "eiffel-tower-1",
        "paris-0",
        "gustave-eiffel-0",
        "louvre-0",
    ];
    // The request's documents, matched to the citations by id.
    let doc = assert_worked_example(
        &[
            "cohere-v2-documents/response.json",
            "cohere-v2-documents/request.json",
        ],
        [ids[0], ids[1], ids[2]],
        &ids,
        ("cohere", "cohere"),
    );
    assert_eq!(doc["result"]["sentences"][2]["suggestedCitation"], ids[3]);
    // The response alone carries the documents it cites: no suggestion is possible.
    let doc = assert_worked_example(
        &["cohere-v2-documents/response.json"],
        [ids[0], ids[1], ids[2]],
        &ids[..3],
        ("cohere", "cohere"),
    );
    assert!(doc["result"]["sentences"][2]["suggestedCitation"].is_null());
}
