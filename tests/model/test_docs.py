"""The documentation is pinned to the code: every key and option is documented."""

from pathlib import Path

import pytest

from spellpress.model.schema import ComponentSpec, GameSpec, Players, PrintSettings, SizeSpec, WordsSpec
from spellpress.model.template import FillBox, IconBox, ImageBox, ShapeBox, TemplateSpec, TextBox
from spellpress.shop.presets import BlackTextSpec, ShopSpec, Source

ROOT = Path(__file__).resolve().parents[2]
YAML_DOC = (ROOT / "docs" / "yaml.md").read_text()


@pytest.mark.parametrize("model", [GameSpec, Players, PrintSettings, SizeSpec, WordsSpec, ComponentSpec,
                                   TemplateSpec, FillBox, ShapeBox, TextBox, IconBox, ImageBox, ShopSpec, Source,
                                   BlackTextSpec])
def test_every_yaml_key_is_documented(model):
    missing = [name for name in model.model_fields if f"{name}:" not in YAML_DOC and f"`{name}`" not in YAML_DOC]
    assert not missing, f"{model.__name__} keys missing from docs/yaml.md: {missing}"


def test_readme_opens_with_the_two_commands():
    text = (ROOT / "README.md").read_text()
    block = text.split("```")[1]
    assert "make " in block.splitlines()[1] and "make test" in block.splitlines()[2]
