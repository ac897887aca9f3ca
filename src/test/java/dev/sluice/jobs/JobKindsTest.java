package dev.sluice.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class JobKindsTest {
    @Test
    void standardRegistryKnowsJobAndJobSet() {
        JobKinds kinds = JobKinds.standard();
        assertThat(kinds.forApiVersionKind("batch/v1", "Job")).containsInstanceOf(BatchJobKind.class);
        assertThat(kinds.forApiVersionKind("jobset.x-k8s.io/v1alpha2", "JobSet")).containsInstanceOf(JobSetKind.class);
        assertThat(kinds.forApiVersionKind("batch/v1beta1", "Job")).isEmpty();
        assertThat(kinds.forApiVersionKind("kubeflow.org/v1", "TFJob")).isEmpty();
        assertThat(kinds.all()).extracting(JobKind::kind).containsExactly("Job", "JobSet");
        assertThat(kinds.all()).extracting(JobKind::plural).containsExactly("jobs", "jobsets");
    }

    @Test
    void duplicateRegistrationRejected() {
        assertThatThrownBy(() -> new JobKinds(List.of(new BatchJobKind(), new BatchJobKind())))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("batch/v1 Job");
    }
}
