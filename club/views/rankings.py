"""The yearly ranking: current season, archive, exports, publishing."""

from django.http import Http404


def ranking_current(request, slug):  # TODO: being built for issue 5
    raise Http404


def ranking_archive(request, slug):  # TODO: being built for issue 5
    raise Http404


def ranking_season(request, slug, season):  # TODO: being built for issue 5
    raise Http404


def ranking_export(request, slug, season, fmt):  # TODO: being built for issue 5
    raise Http404


def ranking_publish(request, slug, season):  # TODO: being built for issue 5
    raise Http404
