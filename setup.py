# The placeholder package of the pre-commit hooks (.pre-commit-hooks.yaml, `language: python`).
# pre-commit installs a hook repository with `pip install .` at its root; this package has no code
# and one dependency, the ragcite wheel of this version, which holds the `ragcite` command. So the
# hooks need no Rust toolchain. The Python package itself is built from python/ (maturin).
#
# RAGCITE_VERSION must be the `[workspace.package] version` of Cargo.toml, the version of the
# wheel this commit builds: tests/cli/pre_commit.rs fails when they differ.
# docs/python.md#pre-commit-without-a-rust-toolchain says why the hooks are laid out this way.
from setuptools import setup

RAGCITE_VERSION = "0.1.0"

setup(
    name="pre_commit_placeholder_package",
    version="0.0.0",
    install_requires=[f"ragcite=={RAGCITE_VERSION}"],
    # No packages and no modules: without these, setuptools would look for them at the root.
    packages=[],
    py_modules=[],
)
