from rest_framework.pagination import PageNumberPagination


class Pages(PageNumberPagination):
    """``?page=2&page_size=100``: 50 by default, 200 at most."""

    page_size_query_param = "page_size"
    max_page_size = 200
