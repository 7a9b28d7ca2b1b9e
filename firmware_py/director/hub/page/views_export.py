"""The downloads of the record on the director's page (R1060): for a director and results
staff, who keep and publish them; a game leader (viewer) is shown none."""

from __future__ import annotations

EXPORT_SECTION = """<section aria-labelledby="export-title" class="card" id="export">
<h2 id="export-title">Export</h2>
<p>Download: <a href="/export/standings.csv" id="export-standings" download>the standings
(CSV)</a> · <a href="/export/results.csv" id="export-results" download>every result (CSV)</a> ·
<a href="/export/record.json" id="export-record" download>the whole record (JSON, as
<code>gametable tournament export</code>)</a></p></section>"""


def export_section(*, enters_results: bool) -> str:
    """The section of ``/`` with the downloads, for those who may take them."""
    return EXPORT_SECTION if enters_results else ""
