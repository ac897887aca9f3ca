package dev.sluice.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class WorkloadNamesTest {
    private static final String UID = "0b3f7c1e-5d2a-4e8f-9a61-2c4d8e7f1a90";

    @Test
    void tutorialJobSetsGetKueueShapedNames() {
        // Expected suffixes computed independently (Python hashlib) from Kueue's hash input
        // kind "\n" group "\n" name "\n" uid; the tutorial's own uids are unknown, so its suffixes differ.
        assertThat(WorkloadNames.forJob("JobSet", "jobset.x-k8s.io", "multislice-3slice", UID))
                .isEqualTo("jobset-multislice-3slice-56bb3");
        assertThat(WorkloadNames.forJob("JobSet", "jobset.x-k8s.io", "multislice-1slice", UID))
                .isEqualTo("jobset-multislice-1slice-3a1c6");
        assertThat(WorkloadNames.forJob("JobSet", "jobset.x-k8s.io", "multislice-2slice", UID))
                .matches("jobset-multislice-2slice-[0-9a-f]{5}");
        assertThat(WorkloadNames.forJob("Job", "batch", "pi", "1234")).isEqualTo("job-pi-64fa2");
    }

    @Test
    void hashDependsOnEveryInput() {
        String base = WorkloadNames.forJob("JobSet", "jobset.x-k8s.io", "a", "u1");
        assertThat(WorkloadNames.forJob("JobSet", "jobset.x-k8s.io", "a", "u2")).isNotEqualTo(base);
        assertThat(WorkloadNames.forJob("JobSet", "other.io", "a", "u1")).isNotEqualTo(base);
        // same lower-case prefix, different kind spelling: the hash keeps them apart
        assertThat(WorkloadNames.forJob("Jobset", "jobset.x-k8s.io", "a", "u1"))
                .startsWith("jobset-a-").isNotEqualTo(base);
        assertThat(WorkloadNames.forJob("JobSet", "jobset.x-k8s.io", "a", "u1")).isEqualTo(base);
    }

    @Test
    void longNamesAreCutToFit253() {
        String name = "n".repeat(300);
        String w = WorkloadNames.forJob("Job", "batch", name, "u");
        assertThat(w).hasSize(253);
        assertThat(w).startsWith("job-nnnn").matches("job-n{243}-[0-9a-f]{5}");
        assertThat(w).endsWith("-f04c3"); // hash of the full name, not the cut one (Python hashlib)
        // just fits: prefix of exactly 247 characters is kept whole
        String fits = "m".repeat(247 - "job-".length());
        assertThat(WorkloadNames.forJob("Job", "batch", fits, "u")).hasSize(253).startsWith("job-" + fits + "-");
    }
}
