"""The recipes that docs/python.md shows are the scripts the other tests run: each Python block
of its section "Clusters: Dask, Spark, Ray" is a run of lines of one of them, as it is."""

from __future__ import annotations

import re

from conftest import RECIPES, REPO


def section() -> str:
    text = (REPO / "docs" / "python.md").read_text(encoding="utf-8")
    start = text.index("\n## Clusters: Dask, Spark, Ray\n")
    end = text.index("\n## ", start + 1)
    return text[start:end]


def test_every_recipe_block_is_in_a_script():
    blocks = re.findall(r"```python\n(.*?)```", section(), re.S)
    assert len(blocks) == 3, "one block for each engine"
    scripts = {path.name: path.read_text(encoding="utf-8") for path in RECIPES.glob("*_recipe.py")}
    assert sorted(scripts) == ["dask_recipe.py", "ray_recipe.py", "spark_recipe.py"]
    for block, name in zip(blocks, ["dask_recipe.py", "spark_recipe.py", "ray_recipe.py"]):
        assert block in scripts[name], f"this block of docs/python.md is not in {name}:\n{block}"


def test_the_section_names_what_it_links():
    for link in re.findall(r"\]\(\.\./([^)#]+)\)", section()):
        assert (REPO / link).exists(), link
