import type { Socket } from 'node:net';
import type { Document } from 'bson';
import { CommandError, errorReply } from './base/command-error';
import type { EmbeddedMongoLogger } from './base/logger';
import { MessageReader, type RawMessage } from './wire/message-reader';
import { encodeOpMsgReply, parseOpMsg } from './wire/op-msg';
import { encodeOpReply, parseOpQuery } from './wire/op-query';
import { ProtocolError } from './wire/protocol-error';
import { OP_MSG, OP_QUERY } from './wire/wire-constants';

/** A reply, and BSON elements encoded beforehand to end it with (a replica set's cluster time). */
export interface Reply {
  readonly document: Document;
  readonly trailer?: Buffer;
}

/**
 * Runs one command for this connection; returns the reply (a promise when it waits for data, as a
 * change stream's getMore does) and, when writes must become durable first, a promise.
 */
export type CommandRunner = (
  command: Document,
  db: string,
  connectionId: number,
) => { reply: Reply | Promise<Reply>; durable?: Promise<void> };

type ReplyEncoder = (reply: Document, trailer?: Buffer) => Buffer;

let nextReplyId = 1;

/**
 * One client socket: frames messages, runs each command synchronously, writes replies in order.
 * A protocol violation closes only this socket; the reason is logged.
 */
export class WireConnection {
  private readonly reader = new MessageReader();
  /** Set while a reply waits for durability; later replies queue behind it to keep order. */
  private pending?: Promise<void>;

  constructor(
    private readonly socket: Socket,
    readonly id: number,
    private readonly run: CommandRunner,
    private readonly logger: EmbeddedMongoLogger,
  ) {
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', (error) => this.logger.info('connection error', { connectionId: id, error: error.message }));
  }

  close(): void {
    this.socket.destroy();
  }

  private onData(chunk: Buffer): void {
    try {
      for (const message of this.reader.push(chunk)) this.handle(message);
    } catch (error) {
      const reason = error instanceof ProtocolError ? error.message : `internal error: ${(error as Error).message}`;
      this.logger.warn('closing connection', { connectionId: this.id, reason });
      this.socket.destroy();
    }
  }

  private handle(message: RawMessage): void {
    if (message.opCode === OP_MSG) {
      const { command, moreToCome } = parseOpMsg(message.body);
      const db = command.$db;
      const result =
        typeof db === 'string' && db.length > 0
          ? this.run(command, db, this.id)
          : { reply: { document: errorReply(new CommandError('FailedToParse', 'OP_MSG requires a $db argument')) } };
      if (!moreToCome)
        this.send(
          result.durable,
          (reply, trailer) => encodeOpMsgReply(nextReplyId++, message.requestId, reply, trailer),
          result.reply,
        );
      return;
    }
    if (message.opCode === OP_QUERY) {
      const { command, database } = parseOpQuery(message.body);
      const result = this.run(command, database, this.id);
      this.send(
        result.durable,
        (reply, trailer) => encodeOpReply(nextReplyId++, message.requestId, reply, trailer),
        result.reply,
      );
      return;
    }
    throw new ProtocolError(`unsupported opcode ${message.opCode}`);
  }

  private send(durable: Promise<void> | undefined, encode: ReplyEncoder, reply: Reply | Promise<Reply>): void {
    if (!durable && !this.pending && !(reply instanceof Promise)) {
      this.write(encode, reply);
      return;
    }
    const waitFor = Promise.all([reply, this.pending, durable]);
    const written = waitFor.then(
      ([ready]) => this.write(encode, ready),
      (error: Error) => {
        this.logger.error('durability barrier failed; closing connection', {
          connectionId: this.id,
          error: error.message,
        });
        this.socket.destroy();
      },
    );
    this.pending = written;
    void written.then(() => {
      if (this.pending === written) this.pending = undefined;
    });
  }

  /** A reply that cannot be encoded (over 16 MiB, say) is answered with an error instead. */
  private write(encode: ReplyEncoder, reply: Reply): void {
    if (this.socket.destroyed) return;
    let bytes: Buffer;
    try {
      bytes = encode(reply.document, reply.trailer);
    } catch (error) {
      bytes = encode(
        errorReply(new CommandError('InternalError', `could not encode reply: ${(error as Error).message}`)),
      );
    }
    this.socket.write(bytes);
  }
}
