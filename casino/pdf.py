"""PDF files of the reports a regulator asks for on paper (the shift report, the period report, an
incident's file): the page's own template rendered into a print layout and laid out by WeasyPrint.

    pdf_response(request, "books/pdf_shift.html", context, "shift-R-1-20261205-0800.pdf")

The fonts are the vendored DejaVu Sans (casino/static/vendor/fonts), so Cyrillic, accents and the
suit symbols draw on a server without system fonts, and every file looks the same wherever it is
made. WeasyPrint fetches nothing from the network: `local_only` answers for the project's static
files and refuses any other address, so no text in a report can make the server fetch a URL.
"""

from pathlib import Path

from django.contrib.staticfiles import finders
from django.http import HttpResponse
from django.template.loader import render_to_string
from django.utils import timezone

from .exports import content_disposition

PDF_TYPE = "application/pdf"
STYLESHEET = "casino/pdf.css"


class RefusedFetch(ValueError):
    pass


def _static_file(path: str) -> Path:
    if ".." in path.split("/") or path.startswith("/"):
        raise RefusedFetch(f"no static file {path!r}")
    found = finders.find(path)
    if not found:
        raise RefusedFetch(f"no static file {path!r}")
    return Path(found)


def local_only(url: str) -> tuple[bytes, str]:
    """What a PDF may fetch: `static:<path>` from the project's static files (its body and type),
    nothing else."""
    if not url.startswith("static:"):
        raise RefusedFetch(f"a PDF fetches only the project's static files, not {url[:80]!r}")
    path = _static_file(url.removeprefix("static:"))
    mime = {".css": "text/css", ".ttf": "font/ttf"}.get(path.suffix, "application/octet-stream")
    return path.read_bytes(), mime


def _fetcher():
    from weasyprint.urls import URLFetcher, URLFetcherResponse

    class LocalOnly(URLFetcher):
        def fetch(self, url, headers=None):
            body, mime = local_only(url)
            return URLFetcherResponse(url, body=body, headers={"Content-Type": mime})

    return LocalOnly(fail_on_errors=True)  # a missing font or stylesheet fails the file, not silently


def pdf_bytes(html: str) -> bytes:
    from weasyprint import CSS, HTML
    from weasyprint.text.fonts import FontConfiguration

    fonts, fetcher = FontConfiguration(), _fetcher()
    sheet = CSS(url=f"static:{STYLESHEET}", url_fetcher=fetcher, font_config=fonts)
    document = HTML(string=html, base_url="static:", url_fetcher=fetcher)
    return document.write_pdf(stylesheets=[sheet], font_config=fonts)


def pdf_response(request, template: str, context: dict, filename: str) -> HttpResponse:
    """The template (extending pdf/base.html) as a PDF download named `filename`."""
    html = render_to_string(template, {**context, "made_at": timezone.now(), "made_by": request.user}, request)
    response = HttpResponse(pdf_bytes(html), content_type=PDF_TYPE)
    response["Content-Disposition"] = content_disposition(filename)
    return response
