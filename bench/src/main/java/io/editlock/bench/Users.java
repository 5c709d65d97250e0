package io.editlock.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/** Users of one generator run, each with a demo-login token. Ids are unique per invocation. */
final class Users {

    record User(String id, String name, String token) {}

    private Users() {}

    static List<User> login(Api api, String prefix, int count) {
        String run = UUID.randomUUID().toString().substring(0, 8);
        List<String> tokens =
                Parallel.map(count, 16, i -> api.demoLogin(prefix + "-" + run + "-" + i, prefix + " " + i));
        List<User> users = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            users.add(new User(prefix + "-" + run + "-" + i, prefix + " " + i, tokens.get(i)));
        }
        return users;
    }
}
