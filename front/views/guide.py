"""The guide (« Aide »): its contents and one page a task, in the reader's language. The prose
is a template a page and a language (templates/front/guide/<lang>/<slug>.html), the pages' list and
the sections each page of the site points to are front/guide.py's."""

from __future__ import annotations

from django.http import Http404, HttpRequest
from django.template.response import TemplateResponse

from front.guide import PAGES, guide_language


def guide(request: HttpRequest) -> TemplateResponse:
    return TemplateResponse(request, "front/guide/index.html", {"pages": PAGES.items()})


def guide_page(request: HttpRequest, slug: str) -> TemplateResponse:
    if slug not in PAGES:
        raise Http404("No such page in the guide.")
    slugs = list(PAGES)
    at = slugs.index(slug)
    context = {
        "slug": slug,
        "title": PAGES[slug],
        "prose": f"front/guide/{guide_language()}/{slug}.html",
        "shots": f"guide/{guide_language()}/",
        "previous": (slugs[at - 1], PAGES[slugs[at - 1]]) if at else None,
        "next": (slugs[at + 1], PAGES[slugs[at + 1]]) if at + 1 < len(slugs) else None,
    }
    return TemplateResponse(request, "front/guide/page.html", context)
