import { type ComponentProps, type ComponentType, type ReactNode, useState } from 'react';
import type { FieldValues, UseFormSetError } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { toastSuccess } from '../../lib/api-toast';
import type { useFormErrors } from '../../lib/form-errors';
import { queryClient } from '../../lib/query-client';
import { RecordFiles } from '../files/record-files';
import {
  historyPath,
  type RecordBody,
  type RecordKind,
  type RecordOf,
  recordKey,
  recordPaths,
  useSaveRecord,
} from './api';
import { ClinicalFrame, ReadOnlyNotice, RecordLoader, RecordStamps, useCanWriteClinical } from './clinical-frame';
import { ConflictAlert, DeleteRecordButton, EditLink, isVersionConflict, toastSaveError } from './form-bits';
import { ClinicalChanges } from './record-changes';
import { recordKinds } from './records';

/*
 * The three screens of every clinical record (new, show, edit), written once: the frame with the
 * patient, the permission check, loading the record, the stale-version conflict and the history
 * of changes. A kind brings its form and its view (see diagnosis.tsx).
 */

export interface RecordFormProps<K extends RecordKind> {
  patientId: string;
  record: RecordOf[K] | null;
  onConflict?: (current: RecordOf[K] | null) => void;
}

export interface RecordViewProps<K extends RecordKind> {
  patientId: string;
  record: RecordOf[K];
  canWrite: boolean;
}

/** The files of a record kind that has them (`files` in records.ts); none for the others. */
function FilesOf({
  kind,
  patientId,
  id,
  canWrite,
}: {
  kind: RecordKind;
  patientId: string;
  id: string;
  canWrite: boolean;
}) {
  if (!('files' in recordKinds[kind]) || (kind !== 'diagnosis' && kind !== 'laboratory')) return null;
  return <RecordFiles patientId={patientId} record={{ kind, id }} canWrite={canWrite} />;
}

/** The patient and the record of the route (`:patientId` and the kind's id parameter). */
function useRecordParams(kind: RecordKind) {
  const params = useParams();
  return { patientId: params.patientId ?? '', id: params[recordKinds[kind].idParam] ?? '' };
}

/**
 * The patient's clinical frame around a record screen, titled `pages.<kind><screen>` and keyed by
 * the route's patient and record (another record is a new screen); `children` gets the route's ids
 * and whether the user may write.
 */
function RecordScreenFrame<K extends RecordKind>({
  kind,
  screen,
  children,
}: {
  kind: K;
  screen: 'New' | 'Show' | 'Edit';
  children: (route: { patientId: string; id: string }, canWrite: boolean) => ReactNode;
}) {
  const { t } = useTranslation('common');
  const route = useRecordParams(kind);
  const canWrite = useCanWriteClinical();
  return (
    <ClinicalFrame
      key={screen === 'New' ? route.patientId : `${route.patientId}/${route.id}`}
      patientId={route.patientId}
      kind={kind}
      title={t(`pages.${kind}${screen}`)}
      testId={`${kind}-${screen.toLowerCase()}`}
    >
      {() => children(route, canWrite)}
    </ClinicalFrame>
  );
}

/** `…/mh/<kind>/new` (clinical.write). */
export function RecordNewScreen<K extends RecordKind>({
  kind,
  Form,
}: {
  kind: K;
  Form: ComponentType<RecordFormProps<K>>;
}) {
  return (
    <RecordScreenFrame kind={kind} screen="New">
      {({ patientId }, canWrite) => (canWrite ? <Form patientId={patientId} record={null} /> : <ReadOnlyNotice />)}
    </RecordScreenFrame>
  );
}

/** The edit form, and what it says when another user saved the record first. */
function EditRecordForm<K extends RecordKind>({
  kind,
  patientId,
  record,
  Form,
}: {
  kind: K;
  patientId: string;
  record: RecordOf[K];
  Form: ComponentType<RecordFormProps<K>>;
}) {
  const [conflict, setConflict] = useState<{ current: RecordOf[K] | null } | null>(null);
  const key = recordKey(kind, patientId, record.id);
  return (
    <>
      {conflict ? <ConflictAlert current={conflict.current} /> : null}
      <Form
        key={record.version}
        patientId={patientId}
        record={record}
        onConflict={(current) => {
          setConflict({ current });
          if (current) queryClient.setQueryData(key, current);
          else void queryClient.invalidateQueries({ queryKey: key });
        }}
      />
    </>
  );
}

/** `…/mh/<kind>/edit/:id` (clinical.write); `locked` answers instead of the form when the record may no longer change. */
export function RecordEditScreen<K extends RecordKind>({
  kind,
  Form,
  locked,
}: {
  kind: K;
  Form: ComponentType<RecordFormProps<K>>;
  locked?: (record: RecordOf[K], patientId: string) => ReactNode;
}) {
  return (
    <RecordScreenFrame kind={kind} screen="Edit">
      {({ patientId, id }, canWrite) =>
        canWrite ? (
          <RecordLoader kind={kind} patientId={patientId} id={id}>
            {(record) =>
              locked?.(record, patientId) ?? (
                <>
                  <EditRecordForm kind={kind} patientId={patientId} record={record} Form={Form} />
                  <FilesOf kind={kind} patientId={patientId} id={record.id} canWrite />
                </>
              )
            }
          </RecordLoader>
        ) : (
          <ReadOnlyNotice />
        )
      }
    </RecordScreenFrame>
  );
}

/** `…/mh/<kind>/show/:id` (patients.read). */
export function RecordShowScreen<K extends RecordKind>({
  kind,
  View,
}: {
  kind: K;
  View: ComponentType<RecordViewProps<K>>;
}) {
  return (
    <RecordScreenFrame kind={kind} screen="Show">
      {({ patientId, id }, canWrite) => (
        <RecordLoader kind={kind} patientId={patientId} id={id}>
          {(record) => <View patientId={patientId} record={record} canWrite={canWrite} />}
        </RecordLoader>
      )}
    </RecordScreenFrame>
  );
}

/**
 * A record form's save: create or update, the success toast, on to the record; a stale version
 * goes to `onConflict`, field errors onto their fields, anything else a toast.
 */
export function useRecordSave<K extends RecordKind>(
  kind: K,
  { patientId, record, onConflict }: RecordFormProps<K>,
  formErrors: ReturnType<typeof useFormErrors>,
) {
  const navigate = useNavigate();
  const save = useSaveRecord(kind, patientId, record?.id);
  return async <T extends FieldValues>(body: RecordBody<K>, setError: UseFormSetError<T>) => {
    try {
      const answer = await save.mutateAsync(body);
      if (answer.code) toastSuccess(answer.code);
      void navigate(recordPaths.show(kind, patientId, answer.data.id), { replace: record !== null });
    } catch (error) {
      if (isVersionConflict(error) && onConflict) {
        onConflict((error.details?.current as RecordOf[K] | undefined) ?? null);
        return;
      }
      if (!formErrors.place(error, setError)) toastSaveError(error);
    }
  };
}

/** Where a record form's Back goes: the record (editing) or the kind's history tab. */
export const formBackPath = (kind: RecordKind, patientId: string, record: { id: string } | null) =>
  record ? recordPaths.show(kind, patientId, record.id) : historyPath(patientId, recordKinds[kind].tab);

/**
 * The read view of a record: the status and the actions (delete and edit when allowed, `actions`
 * before them), the facts, who created and changed it, then `after` and its history of changes.
 */
export function RecordCard<K extends RecordKind>({
  kind,
  patientId,
  record,
  canWrite,
  status,
  actions,
  description,
  deleteExtra,
  names = {},
  changes = {},
  children,
  after,
}: RecordViewProps<K> & {
  kind: K;
  status: ReactNode;
  actions?: ReactNode;
  /** How the delete dialog names the record; no delete or edit without it (a record that may no longer change). */
  description: string | null;
  deleteExtra?: string | undefined;
  /** Names of the ids the history of changes shows (the professional's is added). */
  names?: Record<string, string>;
  /** How the history of changes names the kind's own fields, values and actions. */
  changes?: Pick<ComponentProps<typeof ClinicalChanges>, 'fieldLabels' | 'valueLabels' | 'actionLabel'>;
  children: ReactNode;
  after?: ReactNode;
}) {
  const editable = canWrite && description !== null;
  return (
    <>
      <section className="card mb-0" data-testid={`${kind}-view`}>
        <div className="card-body d-flex flex-column gap-3">
          <div className="d-flex flex-wrap gap-2 align-items-center">
            {status}
            {actions || editable ? (
              <div className="ms-auto d-flex gap-2 flex-wrap">
                {actions}
                {editable ? (
                  <>
                    <DeleteRecordButton
                      kind={kind}
                      patientId={patientId}
                      id={record.id}
                      description={description}
                      extra={deleteExtra}
                    />
                    <EditLink kind={kind} patientId={patientId} id={record.id} />
                  </>
                ) : null}
              </div>
            ) : null}
          </div>
          {children}
          <RecordStamps record={record} />
        </div>
      </section>
      {after}
      <FilesOf kind={kind} patientId={patientId} id={record.id} canWrite={canWrite} />
      <ClinicalChanges
        kind={kind}
        patientId={patientId}
        id={record.id}
        names={{ [record.professionalId]: record.professionalName, ...names }}
        {...changes}
      />
    </>
  );
}
