declare module 'pouchdb-browser' {
	const PouchDB: new (name: string, opts?: Record<string, unknown>) => unknown;
	export default PouchDB;
}
