package io.editlock.support;

import static org.awaitility.Awaitility.await;

import io.editlock.redis.embedded.RedisBinary;
import io.editlock.redis.embedded.RedisProcess;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * A real Redis Cluster on loopback: three masters started with {@code cluster-enabled yes}, joined
 * with {@code redis-cli --cluster create}, each running the ACL an operator gets (deploy/redis-users.acl). Needs redis-server and redis-cli on the PATH.
 */
public final class TestRedisCluster implements AutoCloseable {

    private final List<RedisProcess> masters;
    private final ShippedRedisAcl acl;

    private TestRedisCluster(List<RedisProcess> masters, ShippedRedisAcl acl) {
        this.masters = masters;
        this.acl = acl;
    }

    public static Optional<Path> redisCli() {
        return Optional.ofNullable(System.getenv("PATH")).stream()
                .flatMap(path -> List.of(path.split(":")).stream())
                .map(dir -> Path.of(dir, "redis-cli"))
                .filter(Files::isExecutable)
                .findFirst();
    }

    /** Every master runs the shipped ACL; editlock connects as its restricted user. */
    public static TestRedisCluster start() {
        ShippedRedisAcl acl = ShippedRedisAcl.withAdminDefaultUser();
        Path server =
                RedisBinary.onPath().orElseThrow(() -> new IllegalStateException("redis-server is not on the PATH"));
        Path cli = redisCli().orElseThrow(() -> new IllegalStateException("redis-cli is not on the PATH"));
        List<RedisProcess> masters = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            List<String> arguments = new ArrayList<>(List.of(
                    "--cluster-enabled",
                    "yes",
                    "--cluster-config-file",
                    "nodes.conf",
                    "--cluster-node-timeout",
                    "2000"));
            arguments.addAll(acl.serverArguments());
            masters.add(new RedisProcess(server, RedisProcess.freePort(), arguments).start());
        }
        List<String> create = new ArrayList<>(List.of(cli.toString(), "--cluster", "create"));
        masters.forEach(master -> create.add("127.0.0.1:" + master.port()));
        create.addAll(List.of("--cluster-replicas", "0", "--cluster-yes"));
        run(create);
        TestRedisCluster cluster = new TestRedisCluster(masters, acl);
        await().atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> masters.stream()
                        .allMatch(master -> run(List.of(
                                        cli.toString(), "-p", String.valueOf(master.port()), "cluster", "info"))
                                .contains("cluster_state:ok")));
        return cluster;
    }

    /** {@code quarkus.redis.hosts}: every master, as the editlock user. */
    public String hosts() {
        return masters.stream().map(master -> acl.url(master.port())).collect(Collectors.joining(","));
    }

    /** Empties the master that holds this key's slot, and only it: that shard lost its data. */
    public void flushMasterHolding(String key) {
        run(List.of(cli(), "-p", String.valueOf(masterHolding(key).port()), "flushall"));
    }

    /**
     * The master that holds this key's slot answers no client for a while, and stays in the cluster (its
     * bus goes on, so nothing fails over): a shard paused, or cut off from the application alone.
     */
    public void pauseMasterHolding(String key, Duration pause) {
        run(List.of(
                cli(),
                "-p",
                String.valueOf(masterHolding(key).port()),
                "client",
                "pause",
                String.valueOf(pause.toMillis()),
                "ALL"));
    }

    /**
     * The master that holds this key's slot goes down (as a crash would) until {@code whileDown} returns,
     * then starts again on its port with its cluster config, and the cluster is whole again. Nothing fails
     * over: the cluster has no replicas.
     */
    public void crashMasterHolding(String key, Runnable whileDown) {
        RedisProcess master = masterHolding(key);
        master.kill();
        try {
            whileDown.run();
        } finally {
            master.start();
            await().atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> masters.stream()
                            .allMatch(each -> run(List.of(cli(), "-p", String.valueOf(each.port()), "cluster", "info"))
                                    .contains("cluster_state:ok")));
        }
    }

    /** The password of editlock's Redis user in {@link #hosts}. */
    public String password() {
        return acl.password();
    }

    /** Whether two keys live on the same master. */
    public boolean sameMaster(String key, String other) {
        return masterHolding(key) == masterHolding(other);
    }

    private RedisProcess masterHolding(String key) {
        int slot = Integer.parseInt(
                run(List.of(cli(), "-p", String.valueOf(masters.get(0).port()), "cluster", "keyslot", key))
                        .trim());
        for (RedisProcess master : masters) {
            // The "myself" line of CLUSTER NODES ends with the master's slot ranges: 0-5460 10923 …
            String myself = run(List.of(cli(), "-p", String.valueOf(master.port()), "cluster", "nodes"))
                    .lines()
                    .filter(line -> line.contains("myself"))
                    .findFirst()
                    .orElseThrow();
            String[] fields = myself.trim().split(" ");
            for (int i = 8; i < fields.length; i++) {
                String[] range = fields[i].split("-");
                int from = Integer.parseInt(range[0]);
                int to = range.length > 1 ? Integer.parseInt(range[1]) : from;
                if (slot >= from && slot <= to) {
                    return master;
                }
            }
        }
        throw new IllegalStateException("no master holds slot " + slot);
    }

    private static String cli() {
        return redisCli().orElseThrow().toString();
    }

    @Override
    public void close() {
        masters.forEach(RedisProcess::close);
    }

    private static String run(List<String> command) {
        try {
            Process process =
                    new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " failed: " + output);
            }
            return output;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
