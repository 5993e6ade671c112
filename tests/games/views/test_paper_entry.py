"""The paper sheet typed in (games/views/paper_entry.py): the codes of the page's language are
read first, then the French ones a sheet printed in French carries."""

from django.utils import translation

from games.views.paper_entry import contract_codes


def test_a_dutch_page_reads_flemish_codes_then_french_ones():
    with translation.override("nl"):
        codes = contract_codes()
    assert codes["v"] == "emballage"
    assert codes["a"] == "solo"  # alleen: on a Dutch page, not the French abondance
    assert codes["ab"] == "abondance"
    assert codes["om"] == "grande_misere_table"
    assert codes["pm"] == "petite_misere"  # a French sheet typed in by a Flemish scorer
    assert codes["p"] == "pass"


def test_a_french_page_reads_the_walloon_codes():
    with translation.override("fr"):
        codes = contract_codes()
    assert codes["e"] == "emballage"
    assert codes["a"] == "abondance"
    assert codes["gmt"] == "grande_misere_table"
