import { signUpAndLogIn, type Account } from '../../helpers/accounts';
import { BOTH_STORES, startApp, type RunningApp } from '../../helpers/app-server';
import { call, type JsonResponse } from '../../helpers/http';

const LIKERS = 40;
const ROUNDS = 4;
/** The owner's PUTs go in this many lanes at once, each one PUT after the other. */
const PUT_LANES = 3;
const PUTS_PER_LANE = 5;
/** The markRead is sent with this PUT of the first lane. */
const MARK_READ_WITH_PUT = 2;
/** The likes start spread over this many milliseconds, so they meet the PUTs in flight. */
const SPREAD_MS = 100;

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * `PUT` keeps the server-owned fields (likes, likedBy, read, ...) in the store's own single
 * write: while the owner replaces a message again and again, 40 other users like it and the
 * owner marks it read, over real HTTP; every like answered 200 is counted and a markRead
 * answered 200 stays. (A read-then-replace loses the likes and the read state written between
 * its read and its replace.)
 */
describe.each(BOTH_STORES)('reliability: atomic PUT on %s', (store, env) => {
  let app: RunningApp;
  let owner: Account;
  let likers: Account[];

  beforeAll(async () => {
    app = await startApp(env);
    owner = await signUpAndLogIn(app.url);
    likers = [];
    // In batches of 10: sign-ups hash passwords, which share the machine's cores.
    for (let batch = 0; batch < LIKERS / 10; batch++)
      likers.push(...(await Promise.all(Array.from({ length: 10 }, () => signUpAndLogIn(app.url)))));
  }, 120_000);
  afterAll(() => app?.close());

  const idOf = (record: Record<string, any>) => record._id ?? record.id;

  it(
    `${ROUNDS} rounds of ${PUT_LANES}x${PUTS_PER_LANE} PUTs by the owner ` +
      `against ${LIKERS} concurrent likes and a markRead lose nothing`,
    async () => {
      const figures: string[] = [];
      const outcomes: {
        counted: string[];
        final: Record<string, any>;
        lastTexts: string[];
        created: Record<string, any>;
      }[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const created = await call(app.url, 'POST', '/messages', {
          token: owner.token,
          body: { text: `round ${round}` },
        });
        expect(created.status).toBe(201);
        const item = `/messages/${idOf(created.body)}`;
        const lanes = Array.from({ length: PUT_LANES }, (_lane, lane) =>
          Array.from({ length: PUTS_PER_LANE }, (_put, index) => `round ${round} lane ${lane} replacement ${index}`),
        );
        const started = Date.now();

        const markRead = () =>
          call(app.url, 'POST', '/messages', {
            token: owner.token,
            headers: { 'x-service-method': 'markRead' },
            body: { id: idOf(created.body) },
          });
        let marking: Promise<JsonResponse> | undefined;
        const replacing = Promise.all(
          lanes.map(async (texts, lane) => {
            const answers: JsonResponse[] = [];
            for (const [index, text] of texts.entries()) {
              // The markRead goes out together with one of the PUTs, while the other lanes' are in flight too.
              if (lane === 0 && index === MARK_READ_WITH_PUT) marking = markRead();
              answers.push(await call(app.url, 'PUT', item, { token: owner.token, body: { text } }));
            }
            return answers;
          }),
        );
        const liking = Promise.all(
          likers.map(async (liker, index) => {
            await pause((index * SPREAD_MS) / LIKERS);
            return {
              liker,
              answer: await call(app.url, 'PATCH', item, { token: liker.token, body: { $inc: { likes: 1 } } }),
            };
          }),
        );
        const [puts, likes] = await Promise.all([replacing, liking]);
        const marked = await marking!;

        expect(puts.flat().map((answer) => answer.status)).toEqual(Array(PUT_LANES * PUTS_PER_LANE).fill(200));
        expect(likes.map(({ answer }) => answer.status)).toEqual(Array(LIKERS).fill(200));
        expect(marked.status).toBe(200);
        const counted = likes
          .filter(({ answer }) => answer.status === 200)
          .map(({ liker }) => liker.user._id as string);
        const final = (await call(app.url, 'GET', item, { token: owner.token })).body;
        figures.push(
          `round ${round}: ${Date.now() - started} ms, ${counted.length} likes ` +
            `answered 200, ${final.likes} counted, read ${final.read}`,
        );
        outcomes.push({ counted, final, lastTexts: lanes.map((texts) => texts.at(-1)!), created: created.body });
      }
      console.log(`atomic PUT on ${store}:\n${figures.join('\n')}`);
      for (const { counted, final, lastTexts, created } of outcomes) {
        expect(final.likes).toBe(counted.length);
        expect(final.likedBy).toHaveLength(counted.length);
        expect([...final.likedBy].sort()).toEqual([...new Set(counted)].sort());
        // Nothing after the markRead sets read back to false: PUT keeps it.
        expect(final.read).toBe(true);
        // The last PUT applied is some lane's last one; owner and creation time stay.
        expect(lastTexts).toContain(final.text);
        expect(final).toMatchObject({ userId: created.userId, createdAt: created.createdAt });
      }
    },
    120_000,
  );

  it('stores a PUT text that looks like a field path or an expression as it was sent', async () => {
    const created = await call(app.url, 'POST', '/messages', { token: owner.token, body: { text: 'plain' } });
    const item = `/messages/${idOf(created.body)}`;
    await call(app.url, 'PATCH', item, { token: likers[0].token, body: { $inc: { likes: 1 } } });
    for (const text of ['$likes', '$$ROOT', '{"$literal":1}']) {
      const replaced = await call(app.url, 'PUT', item, { token: owner.token, body: { text } });
      expect(replaced.status).toBe(200);
      expect(replaced.body).toMatchObject({ text, likes: 1, likedBy: [likers[0].user._id], read: false });
      expect((await call(app.url, 'GET', item, { token: owner.token })).body.text).toBe(text);
    }
  });

  it(
    'keeps PUT from anyone but the owner a 403 that changes nothing, and ' +
      "PUT never takes the client's server-owned fields",
    async () => {
      const created = await call(app.url, 'POST', '/messages', { token: owner.token, body: { text: 'mine' } });
      const item = `/messages/${idOf(created.body)}`;
      const other = await call(app.url, 'PUT', item, { token: likers[1].token, body: { text: 'taken over' } });
      // Readable by the other user, so the refusal may say so.
      expect(other.status).toBe(403);
      expect((await call(app.url, 'GET', item, { token: owner.token })).body).toEqual(created.body);
      for (const body of [
        { text: 'x', likes: 100 },
        { text: 'x', read: true },
        { text: 'x', likedBy: ['someone'] },
        { text: 'x', createdAt: 1 },
      ]) {
        expect((await call(app.url, 'PUT', item, { token: owner.token, body })).status).toBe(400);
      }
      expect((await call(app.url, 'GET', item, { token: owner.token })).body).toEqual(created.body);
    },
  );
});
