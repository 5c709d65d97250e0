package io.editlock.support;

import java.io.IOException;

/** Signals to a process the tests started (kill -STOP, -CONT, …): faults caused, not imitated. */
public final class Signals {

    private Signals() {}

    /** @param what names the process in the message of a failure */
    public static void send(long pid, String signal, String what) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, String.valueOf(pid))
                    .inheritIO()
                    .start();
            if (kill.waitFor() != 0) {
                throw new IllegalStateException("kill -" + signal + " of " + what + " failed");
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot run kill", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
