package dev.sluice.sim;

import java.io.PrintStream;

/** The {@code simulate} sub-command: the admission engine in virtual time, with no cluster. */
public final class SimulateCommand {

    private SimulateCommand() {
    }

    /** Runs the command and returns the process exit code. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        err.println("simulate: not available yet; it arrives with the simulator (issue 4).");
        return 2;
    }
}
