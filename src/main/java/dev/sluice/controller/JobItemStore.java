package dev.sluice.controller;

import dev.sluice.jobs.InvalidJobException;
import dev.sluice.jobs.JobKind;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;

/**
 * The informer store of one job kind: stripped as every store, and a finished job is kept without its pod templates
 * ({@link JobKind#dropPodTemplates}). Each watch event brings the whole object again, so a job that is not finished
 * (or a kind whose finish could be undone) is never short of its templates: only the stored copy of a finished
 * job's event is trimmed.
 */
final class JobItemStore extends StrippedItemStore<GenericKubernetesResource> {

    private final JobKind kind;

    JobItemStore(JobKind kind) {
        this.kind = kind;
    }

    @Override
    GenericKubernetesResource toStored(String key, GenericKubernetesResource job) {
        trimIfFinished(kind, job);
        return job;
    }

    /** Drops the pod templates of a finished job; a status that cannot be read keeps the job whole. */
    static boolean trimIfFinished(JobKind kind, GenericKubernetesResource job) {
        try {
            return kind.finished(job).isPresent() && kind.dropPodTemplates(job);
        } catch (InvalidJobException | IllegalArgumentException unreadable) {
            return false;
        }
    }
}
