package io.editlock.waiting;

import io.editlock.lock.ReleasedLock;
import java.util.List;

/**
 * What answer_takeover answered (read by {@link WaitingReplies#answerTakeover}).
 *
 * @param answered a request was pending for this holder
 * @param late the answer came after the deadline: the run handed the lock over, as no answer would
 * @param released every release the run made and announced
 */
public record AnswerReply(boolean answered, boolean late, List<ReleasedLock> released) {}
