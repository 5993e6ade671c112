"""A club's news as its admins manage it (under ``gestion/site/actualites/``): the list with
drafts, a post written or edited (prefilled from a published night: its podium), published
(e-mailed once to who asked), taken back, deleted. Every page is the club's admins' only
(``club_page(CLUB_ADMIN)``: 403 for its members, 404 for anybody else)."""

from __future__ import annotations

import datetime

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import UploadedFile
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from club.club_pages import club_page
from club.models import Player
from club.permissions import CLUB_ADMIN
from club.views.common import form_errors
from games.models import Tournament

from ..models import NewsPost
from ..models.news import TEXT_MAX
from ..news import (
    PostText,
    news_delete,
    news_publish,
    news_readers,
    news_save,
    news_unpublish,
    night_announcement,
)


class NewsPostForm(forms.Form):
    title = forms.CharField(label=gettext_lazy("Titre"), max_length=200)
    date = forms.DateField(
        label=gettext_lazy("Date"),
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )
    text = forms.CharField(
        label=gettext_lazy("Texte"),
        max_length=TEXT_MAX,
        required=False,
        widget=forms.Textarea(attrs={"rows": 12}),
        help_text=gettext_lazy(
            "En Markdown : **gras**, *italique*, - listes, [lien](https://…), ## titres."
        ),
    )
    photo = forms.FileField(
        label=gettext_lazy("Photo (facultative)"),
        required=False,
        widget=forms.ClearableFileInput(attrs={"accept": "image/jpeg,image/png"}),
    )
    email = forms.BooleanField(
        label=gettext_lazy("À la publication, l'envoyer par e-mail aux membres qui l'ont demandé"),
        required=False,
    )


def _post(request: HttpRequest, pk: int) -> NewsPost:
    return get_object_or_404(NewsPost, club=request.club, pk=pk)


@login_required
@club_page(CLUB_ADMIN)
def news_manage(request: HttpRequest, slug: str) -> TemplateResponse:
    posts = list(NewsPost.objects.filter(club=request.club).latest_first())
    return TemplateResponse(
        request,
        "clubsite/news_manage.html",
        {"club": request.club, "posts": posts, "readers": len(news_readers(request.club))},
    )


def _initial(request: HttpRequest) -> dict:
    """A new post's first words: a published night's announcement (``?soiree=``), else
    today's date only."""
    night_id = request.GET.get("soiree", "")
    if night_id.isdigit():
        night = get_object_or_404(
            Tournament,
            club=request.club,
            pk=int(night_id),
            status=Tournament.Status.PUBLISHED,
        )
        written = night_announcement(night, site=f"{request.scheme}://{request.get_host()}")
        return {"title": written.title, "text": written.text, "date": written.date}
    return {"date": datetime.date.today()}


def _edit(request: HttpRequest, post: NewsPost | None) -> HttpResponse:
    club = request.club
    if post is None:
        initial = _initial(request)
    else:
        # The photo as initial: the widget shows it, with a box to take it off.
        initial = {"title": post.title, "text": post.text, "date": post.date, "photo": post.photo}
    form = NewsPostForm(request.POST or None, request.FILES or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        written = PostText(title=data["title"], text=data["text"], date=data["date"])
        # A new upload only; the post's own photo comes back unchanged, False when taken off.
        photo = data["photo"] if isinstance(data["photo"], UploadedFile) else None
        try:
            post = news_save(
                club,
                written,
                post=post,
                photo=photo,
                photo_clear=data["photo"] is False,
                author=Player.objects.filter(user=request.user).first(),
            )
        except ValidationError as refused:
            form_errors(form, refused)
        else:
            if request.POST.get("action") == "publish":
                news_publish(post, email=data["email"])
                messages.success(request, _("Actualité publiée."))
                return redirect("news-post", slug=club.slug, pk=post.pk)
            messages.success(request, _("Actualité enregistrée."))
            return redirect("news-manage", slug=club.slug)
    context = {
        "club": club,
        "form": form,
        "post": post,
        "readers": len(news_readers(club)),
    }
    return TemplateResponse(request, "clubsite/news_form.html", context)


@login_required
@club_page(CLUB_ADMIN)
def news_new(request: HttpRequest, slug: str) -> HttpResponse:
    return _edit(request, None)


@login_required
@club_page(CLUB_ADMIN)
def news_edit(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    return _edit(request, _post(request, pk))


@require_POST
@login_required
@club_page(CLUB_ADMIN)
def news_publish_view(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    post = news_publish(_post(request, pk), email=request.POST.get("email") == "1")
    messages.success(request, _("« %(title)s » est publiée.") % {"title": post.title})
    return redirect("news-manage", slug=slug)


@require_POST
@login_required
@club_page(CLUB_ADMIN)
def news_unpublish_view(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    post = news_unpublish(_post(request, pk))
    messages.success(
        request, _("« %(title)s » est redevenue un brouillon.") % {"title": post.title}
    )
    return redirect("news-manage", slug=slug)


@login_required
@club_page(CLUB_ADMIN)
def news_delete_view(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    post = _post(request, pk)
    if request.method == "POST":
        news_delete(post)
        messages.success(request, _("« %(title)s » est supprimée.") % {"title": post.title})
        return redirect("news-manage", slug=slug)
    return TemplateResponse(
        request, "clubsite/news_delete.html", {"club": request.club, "post": post}
    )
