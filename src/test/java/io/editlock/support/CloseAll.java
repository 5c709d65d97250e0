package io.editlock.support;

/**
 * Closes every resource of a test, also after one of them failed to close: a node whose log shows
 * an ERROR fails the test as it closes, and the Redis behind it must still stop, or it outlives the
 * build. The first failure is thrown once all are closed, the others added to it.
 */
public final class CloseAll {

    private CloseAll() {}

    public static void close(AutoCloseable... resources) {
        Throwable first = null;
        for (AutoCloseable resource : resources) {
            if (resource == null) {
                continue;
            }
            try {
                resource.close();
            } catch (Exception | AssertionError e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first instanceof AssertionError failed) {
            throw failed;
        }
        if (first != null) {
            throw new IllegalStateException("closing a test's resources failed", first);
        }
    }
}
