/**
 * The relay's half of the pairing handshake (see relay-protocol.ts): nonces and HMAC-SHA256
 * proofs with node:crypto, compared in constant time. Used by the owning relay (sockets.ts) and
 * by a relay joining it (downstream.ts).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { authMessage, type PeerRole } from '../src/mcp/transports/relay-protocol';

/** A fresh nonce: 32 random bytes, hex. */
export function newNonce(): string {
	return randomBytes(32).toString('hex');
}

/** HMAC-SHA256(token, authMessage(...)), hex. */
export function proofFor(token: string, signer: 'peer' | 'relay', role: PeerRole, relayNonce: string, peerNonce: string): string {
	return createHmac('sha256', token)
		.update(authMessage(signer, role, relayNonce, peerNonce))
		.digest('hex');
}

/** Compares a presented proof with the expected one in constant time. */
export function proofMatches(presented: string, expected: string): boolean {
	const a = Buffer.from(presented, 'hex');
	const b = Buffer.from(expected, 'hex');
	return a.length === 32 && a.length === b.length && timingSafeEqual(a, b);
}
