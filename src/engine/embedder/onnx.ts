/**
 * The ONNX protobuf walker: reads named initializers out of a model file without a protobuf
 * library, which is all the static fast path needs of the served `onnx/model.onnx`.
 */
import { MemoryError } from '../../core/errors';

/** TensorProto.DataType FLOAT. */
export const ONNX_FLOAT = 1;
/** TensorProto.DataType INT8. */
export const ONNX_INT8 = 3;

/** One ONNX initializer as stored: element type (TensorProto.DataType), shape and little-endian raw bytes. */
export interface OnnxTensor {
	dataType: number;
	dims: number[];
	raw: Uint8Array;
}

/**
 * Extracts named initializers (with raw_data) from an ONNX ModelProto: a minimal protobuf walk over
 * ModelProto.graph (7) → GraphProto.initializer (5) → TensorProto dims (1), data_type (2), name (8), raw_data (9),
 * so the page needs no protobuf library. Returned raw bytes are views into `buf`.
 */
export function readOnnxInitializers(buf: Uint8Array, names: string[]): Map<string, OnnxTensor> {
	const wanted = new Set(names);
	const found = new Map<string, OnnxTensor>();
	const decoder = new TextDecoder();
	let pos = 0;
	const varint = (): number => {
		let result = 0;
		let mul = 1;
		for (;;) {
			if (pos >= buf.length) throw new RangeError('truncated varint');
			const b = buf[pos++];
			result += (b & 0x7f) * mul;
			if (b < 0x80) return result;
			mul *= 128;
		}
	};
	/** Calls visit(field, wireType, end) for each field in [start, end); visit must leave pos at the field's end. */
	const fields = (start: number, end: number, visit: (field: number, wire: number, fieldEnd: number) => void) => {
		pos = start;
		while (pos < end) {
			const key = varint();
			const field = Math.floor(key / 8);
			const wire = key & 7;
			let fieldEnd: number;
			if (wire === 0) {
				const at = pos;
				varint();
				fieldEnd = pos;
				pos = at;
			} else if (wire === 1) fieldEnd = pos + 8;
			else if (wire === 5) fieldEnd = pos + 4;
			else if (wire === 2) {
				const len = varint();
				fieldEnd = pos + len;
			} else throw new RangeError(`unsupported protobuf wire type ${wire}`);
			if (fieldEnd > end) throw new RangeError('truncated protobuf field');
			visit(field, wire, fieldEnd);
			pos = fieldEnd;
		}
	};
	const tensor = (start: number, end: number) => {
		const t: OnnxTensor & { name?: string } = { dataType: 0, dims: [], raw: new Uint8Array(0) };
		fields(start, end, (field, wire, fieldEnd) => {
			if (field === 1) {
				if (wire === 2) while (pos < fieldEnd) t.dims.push(varint());
				else t.dims.push(varint());
			} else if (field === 2 && wire === 0) t.dataType = varint();
			else if (field === 8 && wire === 2) t.name = decoder.decode(buf.subarray(pos, fieldEnd));
			else if (field === 9 && wire === 2) t.raw = buf.subarray(pos, fieldEnd);
		});
		if (t.name !== undefined && wanted.has(t.name)) found.set(t.name, { dataType: t.dataType, dims: t.dims, raw: t.raw });
	};
	try {
		fields(0, buf.length, (field, wire, graphEnd) => {
			if (field !== 7 || wire !== 2) return;
			fields(pos, graphEnd, (f, w, initEnd) => {
				if (f === 5 && w === 2) tensor(pos, initEnd);
			});
		});
	} catch (e) {
		throw new MemoryError('embedding_failed', `not a readable ONNX model: ${e instanceof Error ? e.message : String(e)}`);
	}
	return found;
}
