package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A native image can read Kueue's configuration file only if Jackson may reflect on every type of it. */
class KueueConfigReflectionTest {

    @Test
    void everyTypeOfTheConfigurationIsRegistered() {
        List<Class<?>> types = new ArrayList<>(List.of(KueueConfig.class));
        collect(KueueConfig.class, types);
        RegisterForReflection registered = KueueConfigReflection.class.getAnnotation(RegisterForReflection.class);
        assertThat(registered).isNotNull();
        assertThat(registered.targets()).containsExactlyInAnyOrderElementsOf(types);
    }

    private static void collect(Class<?> type, List<Class<?>> out) {
        for (Class<?> nested : type.getDeclaredClasses()) {
            out.add(nested);
            collect(nested, out);
        }
    }
}
