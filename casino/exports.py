"""CSV downloads, streamed row by row so a long export never sits whole in memory: the findings, the
security log and the books' reports all answer with `csv_response`."""

import csv

from django.http import StreamingHttpResponse


class _Echo:
    """A file that hands back what is written: csv.writer then yields each row's text."""

    def write(self, value):
        return value


def csv_response(rows, filename: str) -> StreamingHttpResponse:
    writer = csv.writer(_Echo())
    response = StreamingHttpResponse((writer.writerow(row) for row in rows), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
