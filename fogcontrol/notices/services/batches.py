"""Print batches (issue #17, #16): the certified or registered mail run's letters as one PDF, rendered
by the background worker with its progress kept on the batch ("rendering 37 of 120").

``print_batch_start`` records the batch (the letters chosen, in print order) and queues
``fogcontrol.notices.tasks.render_print_batch`` once the transaction commits;
``print_batch_render`` (the task's body) lays out each letter, writing its progress as it goes, and
keeps the PDF under a random name: it goes out only through the access-checked download.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.db import transaction
from django.utils import timezone

from fogcontrol.audit.services import audit_record
from fogcontrol.core.actors import actor_label_for, person
from fogcontrol.core.queue import enqueue_on_commit
from fogcontrol.notices.models import IssuedDocument, PrintBatch
from fogcontrol.notices.pdf import mail_batch_pdf

RENDER_TASK = "fogcontrol.notices.tasks.render_print_batch"
# The most letters one batch prints (a Town's largest run, with room to spare).
BATCH_LIMIT = 2000


@transaction.atomic
def print_batch_start(*, acting_user, documents, kind: str = PrintBatch.Kind.MAIL_RUN) -> PrintBatch:
    """Queue one PDF of ``documents`` (already scoped to ``acting_user`` by the caller), in order."""
    ids = list(dict.fromkeys(document.pk for document in documents))
    if not ids:
        raise ValidationError(
            {"document": "Choose the letters to print: tick at least one letter waiting to be mailed."}
        )
    if len(ids) > BATCH_LIMIT:
        raise ValidationError({"document": f"A batch prints at most {BATCH_LIMIT} letters: choose fewer."})
    batch = PrintBatch.objects.create(
        kind=kind,
        document_ids=ids,
        total=len(ids),
        created_by=person(acting_user),
        created_by_label=actor_label_for(acting_user),
    )
    audit_record(acting_user=acting_user, action="print_batch.start", instance=batch,
                 after={"documents": ids, "kind": kind})  # fmt: skip
    enqueue_on_commit(RENDER_TASK, batch_id=batch.pk)
    return batch


def _progress(batch_id: int):
    def note(rendered: int) -> None:
        PrintBatch.objects.filter(pk=batch_id).update(rendered=rendered)

    return note


def print_batch_render(*, batch_id: int) -> PrintBatch:
    """Render a queued batch (the worker's task). Idempotent: a batch already done is left as it is;
    one left half-way by a stopped worker starts again from its first letter."""
    batch = PrintBatch.objects.get(pk=batch_id)
    if batch.status == PrintBatch.Status.DONE:
        return batch
    PrintBatch.objects.filter(pk=batch_id).update(status=PrintBatch.Status.RENDERING, rendered=0, error="")
    by_id = IssuedDocument.objects.select_related("establishment").in_bulk(batch.document_ids)
    documents = [by_id[pk] for pk in batch.document_ids if pk in by_id]
    try:
        if not documents:
            raise ValueError("none of its letters is stored any more")
        data = mail_batch_pdf(documents, progress=_progress(batch_id))
    except Exception as error:  # noqa: BLE001 (the batch says it failed; the worker stays up)
        PrintBatch.objects.filter(pk=batch_id).update(
            status=PrintBatch.Status.FAILED, error=f"The batch could not be printed: {error}",
            finished_at=timezone.now(),
        )  # fmt: skip
        batch.refresh_from_db()
        return batch
    batch.refresh_from_db()
    batch.file.save(f"mail-run-{batch.pk}.pdf", ContentFile(data), save=False)
    batch.status, batch.rendered, batch.finished_at = PrintBatch.Status.DONE, len(documents), timezone.now()
    batch.save(update_fields=["file", "status", "rendered", "finished_at"])
    return batch
