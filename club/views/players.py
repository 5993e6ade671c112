"""A player's public page: history and season totals."""

from django.http import Http404


def player_detail(request, slug, pk):  # TODO: being built for issue 5
    raise Http404
