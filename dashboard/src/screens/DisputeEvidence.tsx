import { useRef, useState, type ChangeEvent, type FormEvent, type ReactNode } from 'react';
import { useCan } from '../access';
import { useMutation } from '../data';
import { graphql } from '../generated';
import type { DisputeDetailQuery, DisputeEvidenceInput } from '../generated/graphql';
import { inCurrency } from '../money';
import { ApiError, fetchFile, uploadFile } from '../session';
import { ErrorText, saveFile, words } from '../ui';
import { awaitsResponse } from './disputes.gql';

type Dispute = DisputeDetailQuery['dispute'];
type TextField = Exclude<keyof DisputeEvidenceInput, 'fileIds' | 'serviceDate'>;

/** The design's typed text fields (issue 39), each with what a bank reads it for. */
const TEXT_FIELDS: Array<[TextField, string, string]> = [
  ['productDescription', 'Product or service description', 'What was sold, and what the customer was told about it.'],
  ['customerCommunication', 'Customer communication', 'Emails or messages showing the customer received it or agreed to the payment.'],
  ['refundPolicy', 'Refund policy', 'Your refund policy, and how the customer was shown it.'],
  ['serviceDetails', 'Shipping or service details', 'Carrier and tracking number, or how and where the service was given.'],
  ['uncategorizedText', 'Anything else', 'Any other fact that answers the dispute.'],
];

/** What the service takes (POST /v1/disputes/{id}/files checks the type by content; the size is checked here first, to spare the upload). */
const ACCEPTED = 'application/pdf,image/png,image/jpeg';
const MAX_BYTES = 5 * 1024 * 1024;

const UPDATE = graphql(`
  mutation UpdateDisputeEvidence($id: ID!, $input: DisputeEvidenceInput!) {
    updateDisputeEvidence(id: $id, input: $input) {
      id
    }
  }
`);
const SUBMIT = graphql(`
  mutation SubmitDispute($id: ID!) {
    submitDispute(id: $id) {
      id
      status
    }
  }
`);
const ACCEPT = graphql(`
  mutation AcceptDispute($id: ID!) {
    acceptDispute(id: $id) {
      id
      status
    }
  }
`);

const size = (bytes: number) =>
  bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** The text fields as typed (an emptied field is sent as null). */
function typed(form: HTMLFormElement): DisputeEvidenceInput {
  const f = new FormData(form);
  const value = (name: string) => String(f.get(name) ?? '').trim() || null;
  const input: DisputeEvidenceInput = { serviceDate: value('serviceDate') };
  for (const [name] of TEXT_FIELDS) input[name] = value(name);
  return input;
}

/** A form field: its label (the control's name), a hint read as its description, and the control (`id` its id). */
function Field({ id, label, hint, children }: { id: string; label: string; hint?: string; children: ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {hint && (
        <span className="hint" id={`${id}-hint`}>
          {hint}
        </span>
      )}
      {children}
    </div>
  );
}

/** One of the dispute's files: its name, type and size, and a download through the session's token. */
function FileRow({ disputeId, file }: { disputeId: string; file: Dispute['evidence']['files'][number] }) {
  const [error, setError] = useState<unknown>(null);
  async function download() {
    setError(null);
    try {
      const { blob } = await fetchFile(`/v1/disputes/${encodeURIComponent(disputeId)}/files/${encodeURIComponent(file.id)}`);
      saveFile(blob, file.filename);
    } catch (err) {
      setError(err);
    }
  }
  return (
    <li className="row dispute-file" data-file={file.id}>
      <span>{file.filename}</span>
      <span className="muted">
        {file.contentType} · {size(file.size)}
      </span>
      <button type="button" className="secondary" onClick={() => void download()} aria-label={`Download ${file.filename}`}>
        Download
      </button>
      <ErrorText error={error} />
    </li>
  );
}

/**
 * The merchant's answer: the evidence (text fields and files, saved as a draft), then Submit (sent once) or
 * Accept, each confirmed first. Only while the dispute waits for an answer, and for roles with disputes:manage.
 */
export function DisputeEvidence({ dispute: d, onChanged }: { dispute: Dispute; onChanged: () => void }) {
  const can = useCan();
  const form = useRef<HTMLFormElement>(null);
  const [, update] = useMutation(UPDATE);
  const [, submit] = useMutation(SUBMIT);
  const [, accept] = useMutation(ACCEPT);
  const [busy, setBusy] = useState('');
  const [said, setSaid] = useState('');
  const [error, setError] = useState<unknown>(null);
  // Set once the evidence is submitted or the dispute accepted: the answer is final before the dispute is read again.
  const [answered, setAnswered] = useState(false);
  const open = awaitsResponse(d.status) && !answered;
  const editable = open && can('disputes:manage');
  const files = d.evidence.files;

  /** One step at a time (saving, uploading, submitting, accepting): its error shown, the dispute read again after. */
  async function step(doing: string, run: () => Promise<string>) {
    setBusy(doing);
    setError(null);
    setSaid('');
    try {
      setSaid(await run());
    } catch (err) {
      setError(err);
    } finally {
      setBusy('');
      onChanged();
    }
  }
  const ok = async <T,>(answer: Promise<{ error?: unknown; data?: T }>) => {
    const { error: failed } = await answer;
    if (failed) throw failed;
  };

  function save(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const input = typed(e.currentTarget);
    void step('Saving…', async () => {
      await ok(update({ id: d.id, input }));
      return 'Draft saved.';
    });
  }

  /** A chosen file: uploaded (multipart, POST /v1/disputes/{id}/files), then added to the draft's files. */
  function upload(e: ChangeEvent<HTMLInputElement>) {
    const input = e.currentTarget;
    const file = input.files?.[0];
    if (!file) return;
    void step('Uploading…', async () => {
      try {
        if (file.size > MAX_BYTES) throw new ApiError(`${file.name} is larger than 5 MB.`, 'VALIDATION_ERROR');
        const stored = await uploadFile(`/v1/disputes/${encodeURIComponent(d.id)}/files`, file);
        // The draft's whole list of files (a set: the one just stored is attached whether or not the upload already did).
        const fileIds = [...new Set([...files.map((f) => f.id), String(stored.id)])];
        await ok(update({ id: d.id, input: { fileIds } }));
        return `Uploaded ${file.name}.`;
      } finally {
        input.value = '';
      }
    });
  }

  function submitEvidence() {
    if (!form.current) return;
    if (!confirm('Submit this evidence to the cardholder’s bank? It is sent once: nothing can be added or changed afterwards.')) return;
    const input = typed(form.current);
    void step('Submitting…', async () => {
      // What is typed now is what is sent: saved into the draft first.
      await ok(update({ id: d.id, input }));
      await ok(submit({ id: d.id }));
      setAnswered(true);
      return 'Evidence submitted.';
    });
  }

  function acceptDispute() {
    const cost =
      d.status === 'NEEDS_RESPONSE'
        ? ` ${inCurrency(d.amount, d.currency)} and the dispute fee of ${inCurrency(d.fee, d.currency)} will not come back to your balance.`
        : '';
    if (!confirm(`Accept this dispute without contesting it?${cost} This cannot be undone.`)) return;
    void step('Accepting…', async () => {
      await ok(accept({ id: d.id }));
      setAnswered(true);
      return 'Dispute accepted.';
    });
  }

  const why = !awaitsResponse(d.status)
    ? d.submissionCount > 0
      ? 'The evidence was submitted: it can no longer be changed.'
      : `The dispute is ${words(d.status)}: it takes no more evidence.`
    : !answered && !can('disputes:manage')
      ? 'Your role can read disputes but not answer them.'
      : null;

  return (
    <section aria-labelledby="ev-title" className="evidence">
      <h3 id="ev-title">Evidence</h3>
      {why && (
        <p className="muted" data-testid="evidence-locked">
          {why}
        </p>
      )}
      <form ref={form} aria-label="Evidence" onSubmit={save}>
        <fieldset disabled={!editable || busy !== ''}>
          {TEXT_FIELDS.map(([name, label, hint]) => (
            <Field key={name} id={`ev-${name}`} label={label} hint={hint}>
              <textarea id={`ev-${name}`} name={name} rows={3} defaultValue={d.evidence[name] ?? ''} aria-describedby={`ev-${name}-hint`} />
            </Field>
          ))}
          <Field id="ev-serviceDate" label="Shipping or service date">
            <input id="ev-serviceDate" name="serviceDate" type="date" defaultValue={d.evidence.serviceDate ?? ''} />
          </Field>
          <Field id="ev-file" label="Add a file" hint="Receipts, delivery proof, screenshots: PDF, PNG or JPEG, up to 5 MB each.">
            <input id="ev-file" type="file" name="file" accept={ACCEPTED} onChange={upload} aria-describedby="ev-file-hint" />
          </Field>
          {editable && (
            <button type="submit" className="secondary">
              Save draft
            </button>
          )}
        </fieldset>
      </form>
      <h4 id="files-title">Files</h4>
      {files.length === 0 ? (
        <p className="muted">No files yet.</p>
      ) : (
        <ul className="rows" aria-labelledby="files-title">
          {files.map((f) => (
            <FileRow key={f.id} disputeId={d.id} file={f} />
          ))}
        </ul>
      )}
      <div className="actions" role="group" aria-label="Answer the dispute">
        <button type="button" onClick={submitEvidence} disabled={!editable || busy !== ''}>
          Submit evidence
        </button>
        <button type="button" className="secondary danger" onClick={acceptDispute} disabled={!editable || busy !== ''}>
          Accept dispute
        </button>
      </div>
      <p role="status" className="muted">
        {busy || said}
      </p>
      <ErrorText error={error} showCode />
    </section>
  );
}
