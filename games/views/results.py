"""A night's results for everybody once published; exports and the club-night file."""

from django.http import Http404


def night_results(request, slug, pk):  # TODO: being built for issue 5
    raise Http404


def results_export(request, slug, pk, fmt):  # TODO: being built for issue 5
    raise Http404


def night_file(request, slug, pk):  # TODO: being built for issue 5
    raise Http404
