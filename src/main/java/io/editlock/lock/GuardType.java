package io.editlock.lock;

/**
 * The guards of REST writes (docs/protocol.md §8): which other users' locks refuse a write, and which of
 * the writer's own locks a {@code Lock-Token} may name (§7).
 *
 * <table>
 * <tr><th>guard</th><th>refused while another user holds</th><th>Lock-Token of</th></tr>
 * <tr><td>CONFIGURATOR</td><td>configurator C, variables of C, any page of any item in C</td><td>configurator</td></tr>
 * <tr><td>ITEM</td><td>configurator C</td><td>configurator</td></tr>
 * <tr><td>ITEM_FULL</td><td>configurator C, any page of item I or of an item below I</td><td>configurator</td></tr>
 * <tr><td>PAGE</td><td>configurator C, page P of item I</td><td>page P of I, or configurator</td></tr>
 * <tr><td>VARIABLES</td><td>configurator C, variables of C</td><td>variables, or configurator</td></tr>
 * </table>
 *
 * The table itself lives in {@code lua/guards_lib.lua} ({@code guard_blocks}), where the check runs in the
 * same script run as the write. {@link #NONE} is for internal writes (fixtures), never on a route.
 */
public enum GuardType {
    CONFIGURATOR("configurator"),
    ITEM("item"),
    ITEM_FULL("item-full"),
    PAGE("page"),
    VARIABLES("variables"),
    NONE("none");

    private final String wireName;

    GuardType(String wireName) {
        this.wireName = wireName;
    }

    /** The name the scripts know it by. */
    public String wireName() {
        return wireName;
    }
}
