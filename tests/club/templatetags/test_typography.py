import pytest
from django.template import Context, Template
from django.utils import translation


@pytest.fixture
def french():
    with translation.override("fr"):
        yield


def test_the_template_tag_elides_escaped_names(french):
    template = Template(
        "{% load i18n typography %}{% elide club %}{% blocktranslate %}Calendrier de "
        "{{ club }}{% endblocktranslate %}{% endelide %}"
    )
    assert template.render(Context({"club": "L'As"})) == "Calendrier de l&#x27;As"
    assert template.render(Context({"club": "Les As"})) == "Calendrier des As"
    assert template.render(Context({"club": "Ann"})) == "Calendrier d&#x27;Ann"


def test_the_template_tag_leaves_dutch_as_translated():
    template = Template(
        "{% load typography %}{% elide club %}Kalender van {{ club }}{% endelide %}"
    )
    with translation.override("nl"):
        assert template.render(Context({"club": "Les As"})) == "Kalender van Les As"
