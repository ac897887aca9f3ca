package dev.sluice;

import dev.sluice.sim.SimulateCommand;
import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.annotations.QuarkusMain;
import java.util.Arrays;

/**
 * Entry point. {@code simulate ...} runs the simulator in plain Java, before Quarkus boots, so it needs no cluster,
 * opens no port and never starts the operator; anything else boots the application in the configured
 * {@link SluiceMode}.
 */
@QuarkusMain
public class SluiceMain {

    public static final String SIMULATE = "simulate";

    public static void main(String... args) {
        if (args.length > 0 && SIMULATE.equals(args[0])) {
            int exit = SimulateCommand.run(Arrays.copyOfRange(args, 1, args.length), System.out, System.err);
            System.exit(exit);
        }
        Quarkus.run(args);
    }
}
