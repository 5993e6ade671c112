"""The member's own space: profile, results, statistics, data download."""

from django.http import Http404


def profile(request):  # TODO: being built for issue 5
    raise Http404


def my_results(request):  # TODO: being built for issue 5
    raise Http404


def my_data(request):  # TODO: being built for issue 5
    raise Http404
