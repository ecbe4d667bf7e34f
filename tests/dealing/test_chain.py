"""The hash chain and `verify_chain`: intact chains pass; an edit or a deletion made behind the
application's back is found at its link."""

import json

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from dealing import chain, services
from dealing.models import Round

pytestmark = pytest.mark.django_db


def _verify(*args):
    out = []
    try:
        call_command("verify_chain", *args, stdout=_Sink(out))
    except CommandError as exc:
        return exc.returncode, str(exc)
    return 0, "".join(out)


class _Sink:
    def __init__(self, out):
        self.out = out

    def write(self, text):
        self.out.append(text)

    def flush(self):
        pass


@pytest.fixture
def chained(staff, tables, logged):
    """Five rounds at R-1 (one of them corrected and approved) and two at R-9."""
    services.shoe_start(table=tables.ochko, shuffled_by=staff.dealer)
    rounds = [logged(tables.ochko, staff.dealer, seed=k) for k in range(4)]
    fixed = dict(logged(tables.ochko, staff.dealer, seed=4).document)
    original = Round.objects.get(chain_index=4, table=tables.ochko)
    fixed["events"] = fixed["events"][:-1]
    amendment = services.round_amend(round=original, document=fixed, amended_by=staff.dealer, reason="last pay")
    services.round_amendment_decide(round=amendment, decided_by=staff.pitboss, decision="approved")
    others = [logged(tables.ochko_b, staff.dealer, seed=10 + k) for k in range(2)]
    return rounds, amendment, others


def _sql(statement, params):
    with connection.cursor() as cursor:
        cursor.execute(statement, params)


def test_an_untouched_chain_is_intact(chained):
    assert _verify() == (0, "chain intact (8 records, 6 tables)\n")
    assert _verify("--table", "R-9") == (0, "chain intact (2 records, 1 tables)\n")
    code, message = _verify("--table", "nowhere")
    assert code == 1 and "nowhere" in message


def test_status_and_audit_changes_leave_the_chain_intact(chained):
    Round.objects.update(audit_status="findings")
    assert _verify()[0] == 0


def test_an_edited_document_is_found_at_its_link(chained):
    rounds, _, _ = chained
    victim = rounds[2]
    document = dict(victim.document)
    document["stakes"] = [{**document["stakes"][0], "player": "P-FRIEND"}, *document["stakes"][1:]]
    cast = "::jsonb" if connection.vendor == "postgresql" else ""
    _sql(f"UPDATE dealing_round SET document = %s{cast} WHERE id = %s", [json.dumps(document), victim.pk])
    code, message = _verify()
    assert code == 1
    assert message == (f"chain broken: table R-1, link 2, round id {victim.pk}: its contents do not match its hash "
                       f"(the record was changed after it was written)")
    assert _verify("--table", "R-9")[0] == 0


def test_an_edited_amount_column_is_found(chained):
    rounds, _, _ = chained
    _sql("UPDATE dealing_round SET table_max = 99999 WHERE id = %s", [rounds[0].pk])
    code, message = _verify("--table", "R-1")
    assert code == 1 and f"link 0, round id {rounds[0].pk}" in message


def test_a_rehashed_edit_breaks_the_next_link(chained):
    """Whoever edits a record and recomputes its hash must rewrite every later link too."""
    rounds, _, _ = chained
    victim = Round.objects.get(pk=rounds[1].pk)
    victim.document = {**victim.document, "dealer": "someone-else"}
    new_hash = chain.round_hash(victim)
    cast = "::jsonb" if connection.vendor == "postgresql" else ""
    _sql(f"UPDATE dealing_round SET document = %s{cast}, sha256 = %s WHERE id = %s",
         [json.dumps(victim.document), new_hash, victim.pk])
    code, message = _verify()
    assert code == 1
    assert f"link 2, round id {rounds[2].pk}: its previous-hash does not match" in message


def test_a_deleted_record_is_found(chained):
    rounds, _, _ = chained
    victim = rounds[1]
    _sql("DELETE FROM dealing_stake WHERE round_id = %s", [victim.pk])
    _sql("DELETE FROM dealing_round WHERE id = %s", [victim.pk])
    code, message = _verify()
    assert code == 1
    assert message == "chain broken: table R-1, link 1, round id -: link 1 is missing (the next record is link 2)"


def test_the_command_streams_records(chained, monkeypatch):
    """Records come through `.iterator()` in chunks, not as one list."""
    from django.db.models.query import QuerySet

    seen = []
    real = QuerySet.iterator

    def iterator(self, chunk_size=None):
        seen.append((self.model, chunk_size))
        return real(self, chunk_size=chunk_size)

    monkeypatch.setattr(QuerySet, "iterator", iterator)
    assert _verify()[0] == 0
    assert (Round, 2000) in seen
