/**
 * Context cues of entity extraction's proper-name pass (core/entities/names.ts): the one or two
 * words right before a name, or right after it, that tell its kind ("met X" a person, "moved to
 * X" a place, "works at X" an organisation). Looked up in Sets rather than matched with
 * end-anchored regexes, which cost a scan of the preceding text each.
 */

const words = (list: string) => new Set(list.split('|'));

/** Words before a person's name ("met X", "thanks X"). */
export const PERSON_BEFORE = words(
	// Not "called": "a beach called Lagoinha" names a place as often as a person.
	'with|met|meet|meeting|asked|ask|told|tell|thanks|thank|cc|dear|hi|hey|hello|call|calling|' +
		'emailed|email|texted|text|pinged|ping|invited|hugged|married|dating|love',
);
/** Relations in "my friend X", "my boss X". */
export const KIN = words(
	'friend|wife|husband|partner|boyfriend|girlfriend|fiance|fiancé|fiancee|fiancée|boss|manager|' +
		'colleague|coworker|co-worker|sister|brother|mom|mum|mother|dad|father|son|daughter|cousin|' +
		'uncle|aunt|niece|nephew|grandma|grandpa|grandmother|grandfather|mentor|neighbour|neighbor|' +
		'roommate|flatmate|teammate|doctor|therapist|dentist|teacher|tutor|coach|kid|baby|buddy|pal',
);
/** Words after a person's name ("X said", "X is my"). */
export const PERSON_AFTER = words(
	'said|says|told|tells|asked|asks|wrote|writes|thinks|thought|mentioned|replied|suggested|' +
		'wants|wanted|likes|liked|loves|loved|prefers|preferred|recommended|agreed|explained|' +
		'messaged|emailed|texted|herself|himself|is my|was my|and i|and me',
);
/** What "X's …" may be followed by when X is a person. */
export const POSSESSED = words('wife|husband|partner|birthday|mom|mum|dad|sister|brother|son|daughter|kids|family|friend|' + 'boss|car|house|dog|cat');
/** Words before a place's name ("moved to X", "trip to X"). */
export const PLACE_BEFORE = words(
	'visit|visited|visiting|moved to|move to|moving to|lives in|live in|living in|lived in|' +
		'born in|trip to|flew to|fly to|flight to|drove to|travel to|traveled to|travelled to|' +
		'traveling to|travelling to|vacation in|holiday in|based in|located in|relocate to|' +
		'relocated to|relocating to|city of|went to|back in|stayed in|staying in|weekend in|' +
		'week in|arrived in|headed to|heading to',
);
/** Prepositions that make a place of a name the gazetteer lists as one. */
export const WEAK_PLACE_BEFORE = words('in|near|outside|around');
/** Weak place cues, used only to settle a word that is both a first name and a place. */
export const PLACE_PREPOSITIONS = words('in|to|from|at|near|around|across|outside|of');
/** Words before an organisation's name ("works at X", "offer from X"). */
export const ORG_BEFORE = words(
	'joined|join|joining|works at|work at|works for|work for|working at|working for|worked at|' +
		'worked for|hired by|employed at|employed by|interview at|interviewed at|interviewing at|' +
		'interview with|interviewed with|interviewing with|job at|offer from|internship at|' +
		'acquired by|customer of|partnered with',
);
/** Words before a project's name ("project X", "working on X"). */
export const PROJECT_BEFORE = words('project|repo|repository|codebase|working on|work on');
/** Words after a project's name ("X repo", "X app"). */
export const PROJECT_AFTER = words('project|repo|repository|codebase|app|service|library|package|plugin|extension');
