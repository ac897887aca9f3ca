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
        assertThat(kinds.forApiVersionKind("kubeflow.org/v1", "TFJob")).containsInstanceOf(TFJobKind.class);
        assertThat(kinds.forApiVersionKind("kubeflow.org/v1", "MPIJob")).isEmpty();
        assertThat(kinds.forApiVersionKind("kubeflow.org/v2beta1", "MPIJob")).containsInstanceOf(MPIJobKind.class);
        assertThat(kinds.all()).extracting(JobKind::kind).containsExactly("Job", "JobSet", "TFJob", "PyTorchJob",
                "XGBoostJob", "PaddleJob", "JAXJob", "MPIJob", "RayJob", "RayCluster", "RayService", "SparkApplication", "Workflow", "AppWrapper");
        assertThat(kinds.all()).extracting(JobKind::plural).containsExactly("jobs", "jobsets", "tfjobs",
                "pytorchjobs", "xgboostjobs", "paddlejobs", "jaxjobs", "mpijobs", "rayjobs", "rayclusters", "rayservices", "sparkapplications", "workflows", "appwrappers");
        assertThat(kinds.all()).extracting(JobKind::integrationName).containsExactly("job", "jobset", "tfjob",
                "pytorchjob", "xgboostjob", "paddlejob", "jaxjob", "mpijob", "rayjob", "raycluster", "rayservice", "sparkapplication", "workflow", "appwrapper");
    }

    @Test
    void onlyKeepsTheSwitchedOnKindsInStandardOrder() {
        JobKinds some = JobKinds.only(List.of("workflow", "job", "rayjob"));
        assertThat(some.all()).extracting(JobKind::kind).containsExactly("Job", "RayJob", "Workflow");
        assertThat(some.forApiVersionKind("kubeflow.org/v1", "TFJob")).isEmpty();
        assertThat(JobKinds.only(List.of()).all()).isEmpty();
        assertThatThrownBy(() -> JobKinds.only(List.of("job", "argo")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("[argo]").hasMessageContaining("workflow");
    }

    @Test
    void duplicateRegistrationRejected() {
        assertThatThrownBy(() -> new JobKinds(List.of(new BatchJobKind(), new BatchJobKind())))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("batch/v1 Job");
    }
}
