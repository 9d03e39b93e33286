/**
 * Entity extraction without any model: a few precompiled regular expressions, a word scanner and
 * small built-in gazetteers. It runs on every store (and on every record of a 100k import), so it
 * is written for speed: one pass per pattern, Sets for lookups, no allocation per character.
 *
 * Entity types it produces:
 * - `person`, `place`, `organisation`, `tool`, `project`: proper names whose kind a cheap signal
 *   reveals (gazetteer, honorific, org suffix, surrounding verbs, first-name list);
 * - `concept`: any other proper name ("Blue Harbor Cafe", "Kepler");
 * - `file` (paths and names with a known extension), `url` (http(s), www., bare domains),
 *   `handle` (@user, and e-mail addresses), `tag` (#hashtag);
 * - `identifier`: code (camelCase, PascalCase with inner capitals, snake_case, SCREAMING_CASE,
 *   dotted.module.paths, fn() calls, `backticked code`);
 * - `term`: a short quoted phrase ("…", “…”, '…').
 */
import { LIMITS, type EntityRef } from './schemas';

/** The entity types extraction produces; callers may store others (the schema allows any). */
export const ENTITY_TYPES = [
	'person',
	'project',
	'tool',
	'place',
	'organisation',
	'concept',
	'file',
	'url',
	'handle',
	'tag',
	'identifier',
	'term',
] as const;
/** One of {@link ENTITY_TYPES}; stored entities may carry other (caller-given) types too. */
export type EntityType = (typeof ENTITY_TYPES)[number];

// ---------------------------------------------------------------------------------------------
// Lexicons. Pipe-separated so multi-word entries ("New York") and dotted ones ("Node.js") fit.
// ---------------------------------------------------------------------------------------------

const TOOLS =
	'JavaScript|TypeScript|Python|Java|Kotlin|Swift|Rust|Go|Ruby|PHP|Perl|Scala|Haskell|Elixir|' +
	'Erlang|Clojure|Lua|Julia|Dart|Zig|Nim|OCaml|Fortran|COBOL|MATLAB|Bash|Zsh|PowerShell|SQL|' +
	'GraphQL|HTML|CSS|Sass|WebAssembly|Solidity|C++|C#|F#|Objective-C|Elm|Groovy|' +
	'PostgreSQL|MySQL|MariaDB|SQLite|MongoDB|Redis|Cassandra|DynamoDB|Elasticsearch|OpenSearch|' +
	'Neo4j|CouchDB|IndexedDB|Dexie|Supabase|Firebase|Firestore|Snowflake|BigQuery|ClickHouse|' +
	'DuckDB|InfluxDB|Pinecone|Weaviate|Qdrant|Milvus|pgvector|Memcached|Kafka|RabbitMQ|' +
	'React|Vue|Angular|Svelte|SvelteKit|Next.js|Nuxt|Remix|Astro|SolidJS|Ember|jQuery|Express|' +
	'Fastify|NestJS|Django|Flask|FastAPI|Rails|Ruby on Rails|Laravel|Spring Boot|Spring Framework|ASP.NET|' +
	'.NET|Node.js|Deno|Bun|Vite|Webpack|Rollup|esbuild|Babel|Tailwind|Tailwind CSS|Bootstrap|' +
	'Redux|Zustand|Apollo|Prisma|Drizzle|Sequelize|TypeORM|Mongoose|Electron|Tauri|Flutter|' +
	'React Native|SwiftUI|Jetpack Compose|Unity|Unreal Engine|Godot|TensorFlow|PyTorch|Keras|JAX|' +
	'scikit-learn|NumPy|Pandas|Polars|Jupyter|LangChain|LlamaIndex|OpenCV|Apache Spark|Hadoop|' +
	'Airflow|dbt|Vitest|Jest|Mocha|Cypress|Playwright|Puppeteer|Selenium|pytest|JUnit|ESLint|' +
	'Prettier|Storybook|Zod|Comlink|MiniSearch|Three.js|D3.js|Cytoscape|transformers.js|ONNX|' +
	'Git|GitHub|GitLab|Bitbucket|Docker|Kubernetes|Helm|Terraform|Ansible|Pulumi|Jenkins|' +
	'CircleCI|GitHub Actions|Travis CI|Nginx|Caddy|Linux|Ubuntu|Debian|Fedora|Arch Linux|macOS|' +
	'Windows|iOS|Android|AWS|AWS Lambda|Azure|GCP|Google Cloud|Cloudflare|Vercel|Netlify|Heroku|' +
	'DigitalOcean|Fly.io|S3|EC2|npm|pnpm|Yarn|pip|Poetry|Conda|Cargo|Homebrew|VS Code|' +
	'Visual Studio|Vim|Neovim|Emacs|IntelliJ|PyCharm|Xcode|Jira|Confluence|Slack|Discord|Notion|' +
	'Figma|Trello|Asana|Obsidian|Zoom|Microsoft Teams|Excel|PowerPoint|Google Docs|' +
	'Google Sheets|Google Drive|Google Maps|Gmail|Chrome|Chromium|Firefox|Safari|ChatGPT|GPT-4|' +
	'GPT-4o|Gemini|Llama|Copilot|Cursor|Claude Code|Ollama|WebLLM|MCP|Postman|Grafana|' +
	'Prometheus|Datadog|Sentry|Kibana|Twilio|Auth0|OAuth|JWT|gRPC|WebSocket|WebGPU|WebRTC|' +
	'Protobuf|JSON|YAML|TOML|Markdown|LaTeX|Tableau|Power BI|Photoshop|Blender|iPhone|iPad|' +
	'MacBook|Kindle|PlayStation|Xbox|Nintendo Switch|Spotify|WhatsApp|Telegram|Signal|YouTube|' +
	'Instagram|TikTok|Strava|Duolingo|Anki|Raspberry Pi|Arduino|Tailscale|WireGuard|OpenAPI|' +
	'Swagger|Vitess|systemd|Zapier|Airtable|HubSpot|SQL Server|Chart.js|Alpine.js|Backbone.js|' +
	'Socket.IO|p5.js|Leaflet|Mapbox|Express.js|Ember.js|Nuxt.js|Nest.js';

/** Tool names that are also ordinary words: recognised only when written capitalised. */
const COMMON_WORD_TOOLS = new Set(
	(
		'go|rust|swift|ruby|java|julia|dart|elm|express|react|remix|astro|ember|bun|jest|mocha|' +
		'cypress|spark|notion|slack|discord|zoom|excel|chrome|safari|gemini|llama|copilot|cursor|' +
		'bootstrap|unity|flask|rails|helm|cargo|poetry|yarn|pip|babel|sass|apollo|prisma|drizzle|' +
		'electron|windows|signal|snowflake|caddy|polars|pandas|sentry|swagger|kindle|telegram|' +
		'obsidian|blender|tableau|node|leaflet|mongoose|airflow|bash|groovy|markdown|vim|linear|' +
		'bun|deno|anki|arduino|leaflet|zapier'
	).split('|'),
);

const PLACES =
	// Countries.
	'Afghanistan|Albania|Algeria|Argentina|Armenia|Australia|Austria|Azerbaijan|Bahamas|' +
	'Bangladesh|Belarus|Belgium|Bolivia|Bosnia|Botswana|Brazil|Bulgaria|Cambodia|Cameroon|' +
	'Canada|Chile|China|Colombia|Costa Rica|Croatia|Cuba|Cyprus|Czechia|Czech Republic|Denmark|' +
	'Dominican Republic|Ecuador|Egypt|El Salvador|England|Estonia|Ethiopia|Fiji|Finland|France|' +
	'Germany|Ghana|Greece|Guatemala|Haiti|Honduras|Hungary|Iceland|India|Indonesia|Iran|Iraq|' +
	'Ireland|Israel|Italy|Jamaica|Japan|Kazakhstan|Kenya|Kosovo|Kuwait|Laos|Latvia|Lebanon|' +
	'Libya|Lithuania|Luxembourg|Madagascar|Malaysia|Maldives|Mali|Malta|Mexico|Moldova|Monaco|' +
	'Mongolia|Montenegro|Morocco|Mozambique|Myanmar|Namibia|Nepal|Netherlands|New Zealand|' +
	'Nicaragua|Niger|Nigeria|North Korea|North Macedonia|Norway|Oman|Pakistan|Palestine|Panama|' +
	'Paraguay|Peru|Philippines|Poland|Portugal|Qatar|Romania|Russia|Rwanda|Saudi Arabia|Scotland|' +
	'Senegal|Serbia|Singapore|Slovakia|Slovenia|Somalia|South Africa|South Korea|Korea|Spain|' +
	'Sri Lanka|Sudan|Sweden|Switzerland|Syria|Taiwan|Tanzania|Thailand|Tunisia|Turkey|Türkiye|' +
	'Uganda|Ukraine|United Arab Emirates|UAE|United Kingdom|UK|United States|USA|US|Uruguay|' +
	'Uzbekistan|Venezuela|Vietnam|Wales|Yemen|Zambia|Zimbabwe|Europe|Asia|Africa|' +
	'North America|South America|Antarctica|Oceania|Scandinavia|Middle East|Caribbean|' +
	// Major cities.
	'New York|New York City|Los Angeles|San Francisco|Chicago|Seattle|Boston|Austin|Denver|' +
	'Portland|Miami|Atlanta|Dallas|Houston|Philadelphia|Phoenix|San Diego|San Jose|Las Vegas|' +
	'Nashville|New Orleans|Detroit|Minneapolis|Pittsburgh|Baltimore|Brooklyn|Manhattan|' +
	'Honolulu|Toronto|Vancouver|Montreal|Ottawa|Calgary|Mexico City|Havana|Bogotá|Lima|Santiago|' +
	'Buenos Aires|São Paulo|Rio de Janeiro|London|Manchester|Liverpool|Edinburgh|Glasgow|' +
	'Dublin|Paris|Lyon|Marseille|Berlin|Munich|Hamburg|Frankfurt|Cologne|Amsterdam|Rotterdam|' +
	'Brussels|Zurich|Geneva|Vienna|Prague|Budapest|Warsaw|Krakow|Copenhagen|Stockholm|Oslo|' +
	'Helsinki|Reykjavik|Madrid|Barcelona|Valencia|Seville|Lisbon|Porto|Rome|Milan|Naples|' +
	'Venice|Athens|Istanbul|Moscow|Kyiv|Kiev|Bucharest|Sofia|Belgrade|Cairo|Lagos|Nairobi|' +
	'Accra|Casablanca|Marrakech|Cape Town|Johannesburg|Addis Ababa|Dubai|Abu Dhabi|Doha|' +
	'Riyadh|Tel Aviv|Jerusalem|Tehran|Mumbai|Delhi|New Delhi|Bangalore|Bengaluru|Chennai|' +
	'Kolkata|Hyderabad|Pune|Karachi|Lahore|Dhaka|Kathmandu|Colombo|Bangkok|Hanoi|' +
	'Ho Chi Minh City|Kuala Lumpur|Jakarta|Bali|Manila|Beijing|Shanghai|Shenzhen|Guangzhou|' +
	'Hong Kong|Taipei|Seoul|Busan|Tokyo|Kyoto|Osaka|Sydney|Melbourne|Brisbane|Perth|Auckland|' +
	'Wellington|Silicon Valley|Bay Area|' +
	// US states.
	'Alabama|Alaska|Arizona|Arkansas|California|Colorado|Connecticut|Delaware|Florida|Georgia|' +
	'Hawaii|Idaho|Illinois|Indiana|Iowa|Kansas|Kentucky|Louisiana|Maine|Maryland|Massachusetts|' +
	'Michigan|Minnesota|Mississippi|Missouri|Montana|Nebraska|Nevada|New Hampshire|New Jersey|' +
	'New Mexico|North Carolina|North Dakota|Ohio|Oklahoma|Oregon|Pennsylvania|Rhode Island|' +
	'South Carolina|South Dakota|Tennessee|Texas|Utah|Vermont|Virginia|Washington|' +
	'West Virginia|Wisconsin|Wyoming';

const ORGANISATIONS =
	'Google|Alphabet|Microsoft|Apple|Amazon|Meta|Facebook|Netflix|OpenAI|Anthropic|IBM|Intel|AMD|' +
	'Nvidia|Qualcomm|Samsung|Sony|Tesla|SpaceX|Twitter|LinkedIn|Uber|Lyft|Airbnb|Stripe|' +
	'Oracle|SAP|Adobe|Atlassian|Mozilla|Wikipedia|Reddit|Hugging Face|DeepMind|Mistral AI|' +
	'Cohere|Red Hat|Canonical|JetBrains|Dropbox|PayPal|Visa|Mastercard|Walmart|Costco|IKEA|' +
	"Starbucks|McDonald’s|McDonald's|Coca-Cola|PepsiCo|Nike|Adidas|BMW|Toyota|Volkswagen|Honda|" +
	'Boeing|Airbus|NASA|ESA|CERN|United Nations|UN|European Union|EU|WHO|NATO|UNESCO|UNICEF|' +
	'FBI|CIA|NHS|BBC|CNN|Reuters|MIT|Stanford|Harvard|Yale|Princeton|Y Combinator|Accenture|' +
	'Deloitte|McKinsey|Goldman Sachs|JPMorgan|Morgan Stanley|Bloomberg|Alibaba|Tencent|Baidu|' +
	'ByteDance|Huawei|Xiaomi|Infosys|Siemens|Bosch|Philips|Nokia|Ericsson|Pinterest|Snapchat|' +
	'Etsy|eBay|Salesforce|Vercel|Cloudflare|Spotify|Duolingo|Nintendo|Valve|Epic Games|Ubisoft|' +
	'Red Cross|Greenpeace|WWF|Oxfam|Doctors Without Borders|Wikimedia';

/** Last words that make a proper name an organisation ("Acme Corp", "Open Source Initiative"). */
const ORG_SUFFIXES = new Set(
	(
		'inc|corp|corporation|co|company|ltd|llc|llp|plc|gmbh|ag|sa|sas|srl|bv|nv|oy|ab|kk|pty|' +
		'university|college|institute|foundation|labs|lab|group|bank|agency|association|society|' +
		'ministry|department|council|hospital|clinic|school|academy|partners|holdings|' +
		'technologies|technology|systems|solutions|studios|studio|ventures|capital|industries|' +
		'enterprises|consulting|media|games|pharmaceuticals|initiative|trust|fund|federation|' +
		'union|committee|commission|authority|office|bureau|church|club|team|press|records|' +
		'airlines|motors|bakery|cafe|café|restaurant|hotel|gym|museum|library'
	).split('|'),
);

/** First words that make a proper name an organisation ("University of Oxford"). */
const ORG_PREFIXES = new Set([
	'university',
	'bank',
	'institute',
	'ministry',
	'department',
	'museum',
]);

/** Last words that make a proper name a place ("Baker Street", "Lake Tahoe" uses the prefix). */
const PLACE_SUFFIXES = new Set(
	(
		'street|st|avenue|ave|road|rd|boulevard|blvd|lane|drive|square|plaza|park|river|lake|' +
		'mountain|mountains|mount|island|islands|bay|beach|city|county|valley|canyon|falls|' +
		'forest|desert|coast|harbor|harbour|peninsula|heights|hills|village|town|district|' +
		'province|state|airport|station'
	).split('|'),
);
const PLACE_PREFIXES = new Set([
	'mount',
	'mt',
	'lake',
	'lago',
	'cape',
	'port',
	'fort',
	'isle',
	'san',
	'santa',
	'saint',
	'st',
]);

/** Titles before a name; they mark a person and are not part of the name. */
const HONORIFICS = new Set(
	(
		'dr|mr|mrs|ms|mx|miss|prof|professor|sir|dame|lord|lady|rev|fr|capt|captain|sgt|col|gen|' +
		'lt|judge|president|senator|governor|mayor|uncle|aunt|auntie|grandma|grandpa|granny|coach|' +
		'officer|detective|nurse|king|queen|prince|princess|pope|rabbi|imam|sister|brother'
	).split('|'),
);

/** Common first names of many cultures; a capitalised one starts a person's name. */
const FIRST_NAMES = new Set(
	(
		'james|john|robert|michael|william|david|richard|joseph|thomas|charles|christopher|daniel|' +
		'matthew|anthony|mark|donald|steven|paul|andrew|joshua|kenneth|kevin|brian|george|' +
		'timothy|ronald|edward|jason|jeffrey|ryan|jacob|gary|nicholas|eric|jonathan|stephen|' +
		'larry|justin|scott|brandon|benjamin|samuel|frank|gregory|raymond|alexander|patrick|jack|' +
		'dennis|jerry|tyler|aaron|jose|adam|nathan|henry|zachary|douglas|peter|kyle|noah|ethan|' +
		'jeremy|walter|christian|keith|roger|terry|austin|sean|gerald|carl|harold|dylan|arthur|' +
		'lawrence|jordan|jesse|bryan|billy|bruce|gabriel|joe|logan|alan|juan|albert|willie|' +
		'elijah|wayne|randy|vincent|mason|roy|ralph|bobby|russell|bradley|philip|eugene|tom|tim|' +
		'ben|sam|max|leo|oliver|lucas|liam|harry|charlie|oscar|alfie|archie|theo|finn|felix|hugo|' +
		'jake|luke|owen|isaac|caleb|ian|neil|nick|dan|mike|matt|chris|alex|rob|bob|bill|will|' +
		'ted|fred|ned|ed|jim|tony|steve|dave|greg|jeff|marcus|julian|simon|martin|victor|' +
		'mary|patricia|jennifer|linda|elizabeth|barbara|susan|jessica|sarah|karen|lisa|nancy|' +
		'betty|margaret|sandra|ashley|kimberly|emily|donna|michelle|carol|amanda|dorothy|melissa|' +
		'deborah|stephanie|rebecca|sharon|laura|cynthia|kathleen|amy|angela|shirley|anna|brenda|' +
		'pamela|emma|nicole|helen|samantha|katherine|christine|debra|rachel|carolyn|janet|' +
		'catherine|maria|heather|diane|ruth|julie|olivia|joyce|virginia|victoria|kelly|lauren|' +
		'christina|joan|evelyn|judith|megan|andrea|cheryl|hannah|jacqueline|martha|gloria|teresa|' +
		'ann|sara|madison|frances|kathryn|janice|jean|abigail|alice|judy|sophia|grace|denise|' +
		'amber|doris|marilyn|danielle|beverly|isabella|theresa|diana|natalie|brittany|charlotte|' +
		'marie|kayla|alexis|lori|ava|mia|amelia|harper|ella|chloe|lily|zoe|nora|hazel|aria|' +
		'ellie|ruby|ivy|isla|freya|poppy|rosie|lucy|sophie|holly|kate|katie|jess|jen|beth|meg|' +
		'claire|clara|eva|iris|julia|lena|nina|tina|vera|ada|may|june|april|' +
		'maya|priya|ravi|raj|rahul|amit|arjun|vikram|anil|sanjay|deepak|suresh|ramesh|kiran|' +
		'ananya|aditi|neha|pooja|divya|sneha|anjali|kavya|isha|meera|rohan|aarav|vivek|nikhil|' +
		'wei|li|jing|ming|hui|yan|xin|lei|jun|hao|chen|yu|mei|ling|xiao|kenji|hiroshi|takeshi|' +
		'yuki|haruto|sakura|yui|aiko|akira|kaito|ren|sora|hana|emi|min-jun|seo-yeon|ji-hoon|' +
		'ji-woo|hyun|soo|jae|mohammed|muhammad|ahmed|ali|omar|hassan|hussein|ibrahim|yusuf|khalid|' +
		'fatima|aisha|zainab|layla|leila|mariam|noor|yasmin|amira|salma|jamal|tariq|karim|' +
		'mustafa|samir|nadia|rania|dalia|olu|chinedu|emeka|kwame|kofi|ama|amara|ngozi|adaeze|' +
		'chioma|tunde|femi|sade|zuri|imani|thabo|sipho|lerato|aminata|moussa|ousmane|' +
		'carlos|luis|miguel|javier|alejandro|diego|pablo|sergio|jorge|manuel|antonio|francisco|' +
		'rafael|fernando|ricardo|eduardo|mateo|santiago|sofia|sofía|lucia|lucía|valentina|' +
		'camila|isabel|elena|carmen|rosa|ana|paula|marta|gabriela|mariana|daniela|catalina|' +
		'pedro|joao|joão|tiago|thiago|bruno|rodrigo|gustavo|felipe|beatriz|fernanda|leticia|' +
		'pierre|jean-pierre|jacques|louis|antoine|nicolas|julien|mathieu|camille|chloé|léa|manon|' +
		'juliette|margot|amélie|hans|klaus|jürgen|stefan|lukas|jonas|leon|paul|anja|katrin|' +
		'sabine|ute|greta|lars|sven|erik|nils|anders|astrid|ingrid|sigrid|elin|johan|mikael|' +
		'giovanni|giuseppe|marco|luca|matteo|alessandro|francesca|giulia|chiara|sara|aurora|' +
		'ivan|dmitri|dmitry|sergei|alexei|nikolai|vladimir|olga|natasha|tatiana|irina|svetlana|' +
		'anastasia|katya|pavel|piotr|tomasz|krzysztof|agnieszka|kasia|zofia|jan|jana|petra|' +
		'mehmet|mustafa|emre|ayse|elif|zeynep|yosef|avi|noa|tamar|yael|eitan|' +
		'kai|sky|river|quinn|riley|jamie|taylor|morgan|casey|avery|rowan|sage|robin|' +
		'nguyen|minh|linh|anh|tuan|thanh|siti|putri|budi|agus|dewi|rizal|jose|maricel|' +
		'rose|andre|andré|gregor|ollie|olly|sue|liz|stan|hank|earl|ray|joy|lou|jo|pat|kim|lee|' +
		'lynn|dana|drew|jon|joel|josh|zach|nate|tess|ella|gemma|abby|molly|millie|jasmine|' +
		'leah|naomi|esther|miriam|dinah|blanche|dolores|agnes|edith|mabel|ivan|omar|yara|' +
		'ayumi|haruki|riku|daiki|mei-ling|xiu|bao|thu|kwesi|abena|yaw|efua|chidi|obinna|' +
		'ife|bola|dayo|nia|malik|andile|luca|enzo|niko|mila|anya|sasha|misha|boris|igor|' +
		'oleg|yusuf|emir|deniz|arash|dariush|shirin|parisa|reza|navid|farah|samira'
	).split('|'),
);

/** Capitalised words that start sentences or are pronouns: never a name on their own. */
const STOP_WORDS = new Set(
	(
		'i|me|my|mine|we|us|our|ours|you|your|yours|he|him|his|she|her|hers|they|them|their|it|' +
		'its|this|that|these|those|there|here|the|a|an|some|any|all|each|every|no|none|both|' +
		'either|neither|another|other|such|what|which|who|whom|whose|when|where|why|how|' +
		'whatever|whoever|and|but|or|nor|so|yet|for|if|then|else|because|since|although|though|' +
		'while|whereas|unless|until|after|before|once|as|at|by|in|on|of|off|to|from|with|' +
		'without|about|above|below|under|over|into|onto|upon|through|during|between|among|' +
		'against|across|around|near|per|via|than|like|unlike|despite|within|toward|towards|' +
		'behind|beyond|besides|except|also|too|just|only|even|still|already|again|always|' +
		'never|often|sometimes|usually|maybe|perhaps|probably|definitely|actually|really|' +
		'basically|honestly|anyway|however|therefore|thus|hence|meanwhile|otherwise|instead|' +
		'indeed|finally|first|second|third|next|last|later|earlier|now|today|tonight|tomorrow|' +
		'yesterday|soon|recently|currently|previously|eventually|overall|yes|not|ok|okay|yeah|' +
		'yep|nope|sure|thanks|thank|please|sorry|hello|hi|hey|dear|oh|ah|well|wow|great|good|' +
		'nice|cool|fine|awesome|lol|haha|omg|btw|fyi|asap|imo|tldr|ps|todo|fixme|note|nb|' +
		'is|are|was|were|be|been|being|am|do|does|did|done|have|has|had|can|could|will|would|' +
		"shall|should|may|might|must|need|needs|let|lets|let’s|let's|make|makes|made|get|gets|" +
		'got|go|goes|went|gone|see|saw|seen|use|uses|used|using|add|added|fix|fixed|remove|' +
		'removed|update|updated|create|created|delete|deleted|run|ran|install|installed|set|try|' +
		'tried|ask|asked|tell|told|call|called|send|sent|meet|met|move|moved|keep|kept|want|' +
		'wanted|liked|love|loved|prefer|prefers|preferred|remember|notes|check|checked|start|' +
		'started|stop|stopped|finish|finished|decide|decided|switch|switched|buy|bought|visit|' +
		'visited|talk|talked|spoke|think|thought|know|knew|feel|felt|look|looked|find|found|take|' +
		'took|give|gave|put|say|said|write|wrote|read|build|built|deploy|deployed|test|tested|' +
		'review|reviewed|merge|merged|refactor|implement|implemented|discuss|discussed|plan|' +
		'planned|learn|learned|learnt|watch|watched|play|played|work|worked|live|lived|come|came|' +
		'bring|brought|show|showed|open|opened|close|closed|save|saved|store|stored|follow|avoid|' +
		"don’t|don't|didn’t|didn't|doesn’t|doesn't|can’t|can't|won’t|won't|isn’t|isn't|" +
		"wasn’t|wasn't|i’m|i'm|i’ve|i've|i’d|i'd|i’ll|i'll|it’s|it's|that’s|that's|" +
		"there’s|there's|we’re|we're|we’ve|we've|they’re|they're|you’re|you're|he’s|" +
		"he's|she’s|she's|what’s|what's|how’s|how's|meeting|summary|issue|bug|task|user|" +
		'users|customer|team|everyone|someone|something|anything|nothing|everything|people|' +
		'new|old|big|small|important|remember|reminder|question|answer|idea|ideas|goal|goals|' +
		'step|steps|result|results|update|status|decision|context|preference|pattern|insight|' +
		'habit|style|mr|mrs|ms|dr|happy|congrats|congratulations|welcome|good|bad|sounds|' +
		'absolutely|exactly|totally|agreed|true|false|right|wait|hmm|oops|also|plus|whether|' +
		'one|two|three|four|five|six|seven|eight|nine|ten|several|many|much|more|most|few|' +
		'less|least|own|same|different|every|very|quite|rather|almost|enough|not|off|out|up|' +
		'down|back|away|home|year|years|month|months|week|weeks|day|days|morning|evening|night|' +
		'afternoon|weekend|phd|mba|msc|bsc|q1|q2|q3|q4|h1|h2'
	).split('|'),
);

/** Pronouns, articles, auxiliaries: a quoted phrase made mostly of these is speech, not a term. */
const FUNCTION_WORDS = new Set(
	(
		'i|me|my|we|us|our|you|your|he|him|his|she|her|they|them|their|it|its|this|that|these|' +
		'those|there|here|the|a|an|and|but|or|so|if|then|to|of|in|on|at|for|with|is|are|was|were|' +
		'be|been|am|do|does|did|have|has|had|can|could|will|would|should|may|might|must|not|no|' +
		"just|what|who|how|why|when|i’m|i'm|i’ll|i'll|it’s|it's|don’t|don't|can’t|can't|" +
		'tomorrow|today|yesterday|now|yes|ok|okay|please|thanks'
	).split('|'),
);

/** Days and months: time expressions (see time.ts), not entities. */
const CALENDAR_WORDS = new Set(
	(
		'monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tue|tues|thu|thur|thurs|' +
		'fri|january|february|march|april|may|june|july|august|september|october|november|' +
		'december|jan|feb|apr|jun|jul|aug|sep|sept|oct|nov|dec|christmas|easter|' +
		'thanksgiving|halloween|spring|summer|autumn|fall|winter|mondays|tuesdays|wednesdays|' +
		'thursdays|fridays|saturdays|sundays|weekday|weekdays|weekends'
	).split('|'),
);

/** Lowercase words allowed inside a proper name ("Bank of America", "Ludwig van Beethoven"). */
const NAME_CONNECTORS = new Set(
	'of|de|da|do|dos|das|des|di|du|del|della|el|los|las|van|von|der|den|la|le|bin|ibn|al|y'.split(
		'|',
	),
);

/** Alias → canonical display form, applied when normalising tool and place names. */
const ALIASES: Record<string, string> = {
	postgres: 'PostgreSQL',
	psql: 'PostgreSQL',
	js: 'JavaScript',
	ts: 'TypeScript',
	py: 'Python',
	golang: 'Go',
	k8s: 'Kubernetes',
	mongo: 'MongoDB',
	node: 'Node.js',
	nodejs: 'Node.js',
	'node js': 'Node.js',
	nextjs: 'Next.js',
	vuejs: 'Vue',
	'vue.js': 'Vue',
	'react.js': 'React',
	reactjs: 'React',
	'svelte kit': 'SvelteKit',
	'c sharp': 'C#',
	cpp: 'C++',
	vscode: 'VS Code',
	'visual studio code': 'VS Code',
	gh: 'GitHub',
	'gh actions': 'GitHub Actions',
	'google cloud platform': 'Google Cloud',
	'amazon web services': 'AWS',
	'sql server': 'SQL Server',
	osx: 'macOS',
	'mac os': 'macOS',
	'os x': 'macOS',
	sklearn: 'scikit-learn',
	tailwindcss: 'Tailwind CSS',
	nyc: 'New York',
	'new york city': 'New York',
	'big apple': 'New York',
	la: 'Los Angeles',
	sf: 'San Francisco',
	'san fran': 'San Francisco',
	dc: 'Washington, D.C.',
	'washington dc': 'Washington, D.C.',
	'washington d.c.': 'Washington, D.C.',
	'u.s.': 'United States',
	'u.s.a.': 'United States',
	us: 'United States',
	usa: 'United States',
	america: 'United States',
	'united states of america': 'United States',
	uk: 'United Kingdom',
	'u.k.': 'United Kingdom',
	britain: 'United Kingdom',
	'great britain': 'United Kingdom',
	uae: 'United Arab Emirates',
	holland: 'Netherlands',
	'the netherlands': 'Netherlands',
	türkiye: 'Turkey',
	bengaluru: 'Bangalore',
	kiev: 'Kyiv',
	czechia: 'Czech Republic',
	'ho chi minh': 'Ho Chi Minh City',
	saigon: 'Ho Chi Minh City',
	bombay: 'Mumbai',
};

/** Known file extensions: `name.ext` is a file even without a directory. */
const FILE_EXTENSIONS =
	'ts|tsx|mts|cts|js|jsx|mjs|cjs|json|jsonl|ndjson|yaml|yml|toml|ini|cfg|conf|env|lock|md|mdx|' +
	'txt|rst|adoc|py|pyi|ipynb|rs|go|java|kt|kts|swift|c|h|cc|cpp|hpp|cs|fs|rb|php|pl|lua|r|' +
	'scala|clj|ex|exs|erl|hs|ml|dart|zig|vue|svelte|astro|html|htm|css|scss|sass|less|sh|bash|' +
	'zsh|fish|ps1|bat|cmd|sql|graphql|gql|proto|csv|tsv|xml|xsd|svg|png|jpg|jpeg|gif|webp|ico|' +
	'bmp|tiff|heic|pdf|doc|docx|xls|xlsx|ppt|pptx|odt|ods|key|pages|numbers|epub|mobi|zip|gz|' +
	'tgz|tar|rar|7z|bz2|xz|wasm|onnx|bin|pt|pth|safetensors|gguf|ckpt|h5|pkl|parquet|arrow|db|' +
	'sqlite|sqlite3|log|out|mp3|mp4|m4a|wav|flac|ogg|mov|avi|mkv|webm|ttf|otf|woff|woff2|dmg|' +
	'exe|msi|deb|rpm|apk|ipa|jar|war|dll|so|dylib|o|a|lib|tf|tfvars|hcl|nix|dockerfile|' +
	'gradle|pom|sln|csproj|xcodeproj|plist|patch|diff|bak|tmp|pem|crt|cer|pub|gpg|ics|vcf';
const FILE_EXTENSION_SET = new Set(FILE_EXTENSIONS.split('|'));

/** Well-known file names without an extension. */
const BARE_FILE_NAMES = new Set(
	(
		'dockerfile|makefile|rakefile|gemfile|procfile|jenkinsfile|vagrantfile|brewfile|readme|' +
		'license|changelog|codeowners|.env|.gitignore|.gitattributes|.npmrc|.nvmrc|' +
		'.editorconfig|.prettierrc|.eslintrc|.bashrc|.zshrc|.profile|.vimrc|.dockerignore'
	).split('|'),
);

/** Top-level domains that make `word.tld` a web address rather than a dotted identifier. */
const URL_TLDS =
	'com|org|net|io|dev|ai|app|edu|gov|co|me|info|xyz|tech|so|gg|tv|fm|ly|sh|us|uk|de|fr|nl|' +
	'eu|ca|au|jp|cn|in|ru|br|es|it|ch|se|no|fi|dk|pl|cz|at|be|ie|nz|za|kr|tw|sg|hk|io';

/** Directories that make `dir/name` a path rather than "and/or" or "TCP/IP". */
const PATH_ROOTS = new Set(
	(
		'src|lib|libs|test|tests|spec|docs|doc|bin|app|apps|packages|node_modules|dist|build|' +
		'public|static|assets|scripts|config|etc|usr|var|home|tmp|opt|workers|components|pages|' +
		'routes|api|server|client|internal|cmd|pkg|include|vendor|examples|fixtures|bench|' +
		'relay|data|models|migrations|styles|utils|.github|.vscode'
	).split('|'),
);

// ---------------------------------------------------------------------------------------------
// Lookup tables built once at load.
// ---------------------------------------------------------------------------------------------

type Gazetteer = Map<string, { display: string; type: EntityType }>;

function buildGazetteer(): Gazetteer {
	const map: Gazetteer = new Map();
	const add = (list: string, type: EntityType) => {
		for (const display of list.split('|')) {
			const key = plainKey(display);
			if (!map.has(key)) map.set(key, { display, type });
		}
	};
	// Order matters on collisions: a name listed as a tool and an org ("Spotify") stays a tool.
	add(TOOLS, 'tool');
	add(ORGANISATIONS, 'organisation');
	add(PLACES, 'place');
	for (const [alias, canonical] of Object.entries(ALIASES)) {
		const target = map.get(plainKey(canonical));
		map.set(alias, target ?? { display: canonical, type: 'place' });
	}
	return map;
}

/** Lowercase, possessive-free, space-collapsed key used for every lexicon lookup. */
function plainKey(s: string): string {
	let k = s.toLowerCase();
	// Fast path: most keys are single plain words (this runs once per word of every text).
	if (k.includes('’') || k.includes('‘')) k = k.replace(/[’‘]/g, "'");
	if (k.endsWith("'s")) k = k.slice(0, -2);
	return k.includes(' ') || k.includes('\t') || k.includes('\n')
		? k.replace(/\s+/g, ' ').trim()
		: k;
}

const GAZETTEER = buildGazetteer();

/** Tool names recognised as written in lowercase: distinctive ones, at least three letters. */
const LOWERCASE_TOOLS = new Set(
	[...GAZETTEER]
		.filter(([k, v]) => v.type === 'tool' && k.length >= 3 && !COMMON_WORD_TOOLS.has(k))
		.map(([k]) => k),
);

/** Tool and place names resolved through the alias table, keyed by canonical lower form. */
function canonicalKey(key: string): string {
	// Own keys only: a name like "constructor" must not find Object.prototype's.
	const alias = Object.hasOwn(ALIASES, key) ? ALIASES[key] : undefined;
	return alias ? plainKey(alias) : key;
}

// ---------------------------------------------------------------------------------------------
// Normalisation and merging (public).
// ---------------------------------------------------------------------------------------------

const LEADING_JUNK = /^[\s"'“”‘’`«»()[\]{}<>*_~|,;:!?]+/;
const TRAILING_JUNK = /[\s"'“”‘’`«»()[\]{}<>*_~|,;:!?.…]/;
const POSSESSIVE = /['’]s$/;
const SPACES = /\s+/g;

/**
 * The matching form of an entity name: NFKC, lowercase, trimmed of quotes, brackets and edge
 * punctuation, spaces collapsed, possessive 's and a leading @ or # removed. For `tool` and
 * `place` (and when no type is given) common aliases map to one form: "Postgres" and
 * "PostgreSQL" both give "postgresql", "NYC" gives "new york".
 */
export function normaliseEntityName(name: string, type?: string): string {
	const junk = (t: string) => trimEnd(t.replace(LEADING_JUNK, ''), TRAILING_JUNK);
	let s = junk(name.normalize('NFKC').replace(SPACES, ' '));
	s = junk(s.replace(/^[@#]+/, '').replace(POSSESSIVE, '')).toLowerCase();
	if (type === 'url') s = trimEnd(s, /\//);
	if (type === undefined || type === 'tool' || type === 'place') s = canonicalKey(s);
	return s;
}

/**
 * `s` without its trailing characters of class `edge` (a one-character class; give it the u flag
 * to match astral code points). Linear: the regex `[…]+$` retries from every start of a long run
 * that stops short of the end, which is quadratic (20,000 "’" before a letter took 16 s).
 */
export function trimEnd(s: string, edge: RegExp): string {
	let end = s.length;
	while (end > 0) {
		const low = s.charCodeAt(end - 1);
		const high = end > 1 ? s.charCodeAt(end - 2) : 0;
		const width = edge.unicode && low >= 0xdc00 && low <= 0xdfff && high >= 0xd800 && high <= 0xdbff ? 2 : 1;
		if (!edge.test(s.slice(end - width, end))) break;
		end -= width;
	}
	return s.slice(0, end);
}

/** Stable id of an entity: `${type}:${normalised name}`, e.g. "tool:postgresql". */
export function entityId(ref: EntityRef): string {
	const type = ref.type.normalize('NFKC').trim().toLowerCase();
	return `${type}:${normaliseEntityName(ref.name, type)}`;
}

/** How specific a type is when two mentions of one name disagree; unknown caller types rank 2. */
const TYPE_RANK: Record<string, number> = {
	person: 3,
	place: 3,
	organisation: 3,
	tool: 3,
	project: 3,
	file: 2,
	url: 2,
	handle: 2,
	tag: 2,
	identifier: 2,
	term: 1,
	concept: 0,
};
const typeRank = (type: string) => TYPE_RANK[type] ?? 2;

/** Prefer the canonical spelling, then mixed case ("PostgreSQL"), then all caps, then lower. */
function displayScore(name: string, key: string): number {
	const canonical = GAZETTEER.get(key);
	if (canonical && canonical.display === name) return 4;
	const hasUpper = name !== name.toLowerCase();
	const hasLower = name !== name.toUpperCase();
	if (hasUpper && hasLower) return 3;
	return hasUpper ? 2 : 1;
}

/** Matching key used to merge: the normalised name, aliased whatever the type. */
function mergeKey(ref: EntityRef): string {
	return canonicalKey(normaliseEntityName(ref.name, ref.type));
}

/**
 * Collapses mentions of one entity: refs whose names normalise alike become one, keeping the
 * most specific type (person/place/organisation/tool/project over file/url/handle/tag/identifier
 * over term over concept; the first seen on ties) and the best display form of that type
 * ("PostgreSQL" over "postgres"). Order follows first appearance.
 */
export function mergeEntities(refs: EntityRef[]): EntityRef[] {
	const groups = new Map<string, EntityRef[]>();
	for (const ref of refs) {
		const key = mergeKey(ref);
		if (!key) continue;
		const group = groups.get(key);
		if (group) group.push(ref);
		else groups.set(key, [ref]);
	}
	const out: EntityRef[] = [];
	for (const [key, group] of groups) out.push(pickBest(key, group));
	return out;
}

function pickBest(key: string, group: EntityRef[]): EntityRef {
	let type = group[0].type;
	for (const ref of group) if (typeRank(ref.type) > typeRank(type)) type = ref.type;
	let best: EntityRef | undefined;
	let bestScore = -1;
	for (const ref of group) {
		if (ref.type !== type) continue;
		const score = displayScore(ref.name, key);
		if (score > bestScore) [best, bestScore] = [ref, score];
	}
	const canonical = GAZETTEER.get(key);
	const useCanonical =
		canonical && (type === 'tool' || type === 'place' || type === 'organisation');
	return { name: useCanonical ? canonical.display : best!.name, type };
}

// ---------------------------------------------------------------------------------------------
// Extraction.
// ---------------------------------------------------------------------------------------------

/** Options of {@link extractEntities}. */
export interface ExtractOptions {
	/** Most entities returned (default and ceiling: the schema's entity limit, 100). */
	max?: number;
}

/** A mention found in the text, before merging. */
interface Mention {
	name: string;
	type: EntityType;
	pos: number;
}

/** Scan state: the text, a claim mask (1 = taken by an entity, 2 = inside code) and mentions. */
interface Scan {
	text: string;
	mask: Uint8Array;
	out: Mention[];
}

const FENCED_CODE = /```[\s\S]*?(?:```|$)/g;
const INLINE_CODE = /`([^`\n]{1,120})`/g;
const URL_RE = new RegExp(
	String.raw`(?:\b[hH][tT][tT][pP][sS]?:\/\/|\b[wW][wW][wW]\.)[^\s<>"'\x60]+|(?<![\w@.\/-])(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.)+(?:${URL_TLDS})(?![\w-])(?:\/[^\s<>"'\x60]*)?`,
	'g',
);
const EMAIL_RE = /(?<![\w.+-])[\w.+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}(?![\w-])/gi;
const WINDOWS_PATH_RE = /(?<![\w\\])[A-Za-z]:\\(?:[^\\\s"'`<>|*?,;]+\\?)*/g;
const UNIX_PATH_RE =
	/(?<![\w/\\.~@:-])(?:(?:~|\.{1,2})?\/[\w.@+-]+(?:\/[\w.@+-]+)*\/?|(?:~|\.{1,2})\/|[\w@+-][\w.@+-]*(?:\/[\w.@+-]+)+\/?)/g;
const FILE_NAME_RE = new RegExp(
	String.raw`(?<![\w.\/\\@-])(?:[\w-]+(?:\.[\w-]+)*\.(?:${FILE_EXTENSIONS})|\.[a-z][\w.-]*rc|\.env(?:\.[\w-]+)?|\.git(?:ignore|attributes)|\.dockerignore|\.editorconfig)(?![\w-])`,
	'gi',
);
const TECH_SYMBOL_RE = /(?<![\w#+.])(?:C\+\+|C#|F#|\.NET|ASP\.NET|Objective-C)(?![\w#+])/g;
const HANDLE_RE = /(?<![\w@.])@[A-Za-z0-9_](?:[\w.-]{0,48}\w)?(?:\/[\w.-]*\w)?/g;
const HASHTAG_RE = /(?<![\w#&/])#[\p{L}_][\p{L}\p{N}_-]*/gu;
/** "U.S.A" and "e.g" end in a letter that is also a file extension; they are not files. */
const ACRONYM_DOTS = /^(?:[A-Za-z]\.)+[A-Za-z]$/;
const HEX_COLOUR = /^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;
const CALL_RE = /(?<![\w$.])[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*\((?=[^)\n]{0,60}\))/g;
const DOTTED_RE = /(?<![\w.$])[A-Za-z_$][\w$]+(?:\.[A-Za-z_$][\w$]+)+(?![\w$])/g;
const CAMEL_RE =
	/(?<![\w$])(?:[a-z]+[0-9]*(?:[A-Z][a-z0-9]*)+|[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)*[A-Z][a-z0-9]*)(?![\w$])/g;
const KEBAB_RE = /(?<![\w$.-])[A-Za-z][A-Za-z0-9.]*(?:-[A-Za-z0-9][A-Za-z0-9.]*)+(?![\w$-])/g;
const SNAKE_RE = /(?<![\w$])_*[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+_*(?![\w$])/g;
const QUOTE_RE =
	/"([^"\n]{2,80})"|“([^”\n]{2,80})”|(?<![\p{L}\p{N}])'([^'\n]{2,60})'(?![\p{L}\p{N}])|‘([^’\n]{2,60})’/gu;
const WORD_RE = /[\p{L}\p{N}][\p{L}\p{N}\p{M}]*(?:['’&-][\p{L}\p{N}\p{M}]+)*/gu;
const TRAILING_PUNCT = /[.,;:!?)\]}'"’”>]/;

/** Leading Mc/Mac/O'/De… names are names, not PascalCase identifiers. */
const NAME_PREFIX = /^(?:Mc|Mac|O'|O’|De|Di|Da|La|Le|Van|Von|Du)[A-Z]/;

/**
 * Finds the entities a text mentions, merged and capped. Deterministic and model-free.
 *
 * @example extractEntities('Maya Chen moved our API from Postgres to DynamoDB, see #infra')
 * // → person "Maya Chen", tool "PostgreSQL", tool "DynamoDB", tag "#infra"
 */
export function extractEntities(text: string, opts: ExtractOptions = {}): EntityRef[] {
	const max = Math.max(0, Math.min(opts.max ?? LIMITS.entities, LIMITS.entities));
	if (!text || max === 0) return [];
	const scan: Scan = { text, mask: new Uint8Array(text.length), out: [] };
	scanCode(scan);
	scanUrls(scan);
	scanPaths(scan);
	scanHandlesAndTags(scan);
	scanIdentifiers(scan);
	scanQuotes(scan);
	scanWords(scan);
	return selectTop(scan.out, max);
}

/** Merges mentions, keeps the `max` most mentioned (then most specific), in order of appearance. */
function selectTop(mentions: Mention[], max: number): EntityRef[] {
	mentions.sort((a, b) => a.pos - b.pos);
	const valid = mentions.filter((m) => m.name.length <= LIMITS.entityNameChars && m.name.trim());
	const merged = mergeEntities(valid);
	if (merged.length <= max) return merged;
	const counts = new Map<string, number>();
	for (const m of valid) counts.set(mergeKey(m), (counts.get(mergeKey(m)) ?? 0) + 1);
	const ranked = merged
		.map((ref, i) => ({ ref, i, n: counts.get(mergeKey(ref)) ?? 0 }))
		.sort((a, b) => b.n - a.n || typeRank(b.ref.type) - typeRank(a.ref.type) || a.i - b.i)
		.slice(0, max)
		.sort((a, b) => a.i - b.i);
	return ranked.map((r) => r.ref);
}

// --- claim mask helpers ----------------------------------------------------------------------

function isFree(scan: Scan, start: number, end: number, allowCode = true): boolean {
	for (let i = start; i < end; i++) {
		const m = scan.mask[i];
		if (m === 1 || (m === 2 && !allowCode)) return false;
	}
	return true;
}

function claim(scan: Scan, start: number, end: number, value = 1): void {
	scan.mask.fill(value, start, end);
}

function emit(scan: Scan, name: string, type: EntityType, pos: number, end = pos + name.length) {
	scan.out.push({ name, type, pos });
	claim(scan, pos, end);
}

/** Gazetteer type for a special token ("Node.js", "Fly.io"), if it is a known name. */
function known(token: string): { display: string; type: EntityType } | undefined {
	return GAZETTEER.get(plainKey(token));
}

// --- passes ----------------------------------------------------------------------------------

/** Backticked code is one identifier (or file/url/tool); fenced blocks are code-only regions. */
function scanCode(scan: Scan): void {
	if (!scan.text.includes('`')) return;
	for (const m of scan.text.matchAll(FENCED_CODE)) claim(scan, m.index, m.index + m[0].length, 2);
	for (const m of scan.text.matchAll(INLINE_CODE)) {
		if (!isFree(scan, m.index, m.index + m[0].length, false)) continue;
		const inner = m[1].trim();
		if (!inner) continue;
		emit(scan, inner, classifyCode(inner), m.index, m.index + m[0].length);
	}
}

function classifyCode(code: string): EntityType {
	if (known(code)?.type === 'tool') return 'tool';
	if (/^(?:https?:\/\/|www\.)/i.test(code)) return 'url';
	if (looksLikePath(code) || isFileName(code)) return 'file';
	return 'identifier';
}

function scanUrls(scan: Scan): void {
	if (!scan.text.includes('.')) return; // every URL and e-mail address has a dot
	if (scan.text.includes('@'))
		for (const m of scan.text.matchAll(EMAIL_RE)) {
			if (isFree(scan, m.index, m.index + m[0].length)) emit(scan, m[0], 'handle', m.index);
		}
	for (const m of scan.text.matchAll(URL_RE)) {
		const url = trimTrailing(m[0]);
		if (!isFree(scan, m.index, m.index + url.length)) continue;
		const hit = known(url);
		if (hit?.type === 'tool') emit(scan, hit.display, 'tool', m.index, m.index + url.length);
		else if (!isFileName(url) || /[:/]/.test(url))
			emit(scan, shortenUrl(url), 'url', m.index, m.index + url.length);
	}
}

/** Drops the query and fragment of an over-long URL so it fits the entity name limit. */
function shortenUrl(url: string): string {
	return url.length <= LIMITS.entityNameChars ? url : url.replace(/[?#].*$/, '');
}

/** Strips sentence punctuation and unbalanced closing brackets from a match's end. */
function trimTrailing(s: string): string {
	let out = trimEnd(s, TRAILING_PUNCT);
	if (out.length < s.length && s[out.length] === ')' && out.includes('(')) {
		out += ')'; // keep the bracket of "…/Foo_(bar)" that opened inside the match
		out = out.replace(/[.,;:!?]+$/, '');
	}
	return out;
}

function scanPaths(scan: Scan): void {
	const { text } = scan;
	if (
		text.includes('#') ||
		text.includes('++') ||
		text.includes('.NET') ||
		text.includes('Objective-C')
	) {
		for (const m of text.matchAll(TECH_SYMBOL_RE)) {
			if (isFree(scan, m.index, m.index + m[0].length)) emit(scan, m[0], 'tool', m.index);
		}
	}
	if (text.includes('/') || text.includes(':\\')) scanPathLike(scan);
	if (!text.includes('.')) return;
	for (const m of text.matchAll(FILE_NAME_RE)) {
		const name = m[0];
		if (!isFree(scan, m.index, m.index + name.length) || ACRONYM_DOTS.test(name)) continue;
		const hit = known(name);
		emit(scan, hit?.display ?? name, hit?.type ?? 'file', m.index, m.index + name.length);
	}
}

function scanPathLike(scan: Scan): void {
	for (const re of [WINDOWS_PATH_RE, UNIX_PATH_RE]) {
		for (const m of scan.text.matchAll(re)) {
			const path = trimTrailing(m[0]);
			if (!isFree(scan, m.index, m.index + path.length)) continue;
			if (re === WINDOWS_PATH_RE || looksLikePath(path)) emit(scan, path, 'file', m.index);
		}
	}
}

/** True for strings a person would call a path: rooted, or with an extension, or deep enough. */
function looksLikePath(s: string): boolean {
	if (/^[A-Za-z]:\\/.test(s)) return true;
	if (!/[\p{L}]/u.test(s) || !s.includes('/')) return false;
	if (/^(?:~|\.{1,2})\//.test(s)) return true;
	const parts = s.split('/').filter(Boolean);
	if (s.startsWith('/')) return parts.length >= 2 || isFileName(parts[0] ?? '');
	if (isFileName(parts[parts.length - 1] ?? '') || parts.length >= 3) return true;
	return PATH_ROOTS.has(parts[0].toLowerCase()) || s.endsWith('/');
}

function isFileName(s: string): boolean {
	const lower = s.toLowerCase();
	if (BARE_FILE_NAMES.has(lower)) return true;
	const dot = lower.lastIndexOf('.');
	return dot > 0 && FILE_EXTENSION_SET.has(lower.slice(dot + 1)) && !known(s);
}

function scanHandlesAndTags(scan: Scan): void {
	if (scan.text.includes('@'))
		for (const m of scan.text.matchAll(HANDLE_RE)) {
			if (!isFree(scan, m.index, m.index + m[0].length)) continue;
			// "@scope/package" is an npm package, i.e. a tool.
			emit(scan, m[0], m[0].includes('/') ? 'tool' : 'handle', m.index);
		}
	if (scan.text.includes('#'))
		for (const m of scan.text.matchAll(HASHTAG_RE)) {
			if (HEX_COLOUR.test(m[0]) || !isFree(scan, m.index, m.index + m[0].length)) continue;
			emit(scan, m[0], 'tag', m.index);
		}
}

function scanIdentifiers(scan: Scan): void {
	const { text } = scan;
	if (text.includes('('))
		for (const m of text.matchAll(CALL_RE)) {
			const name = m[0].slice(0, -1);
			const open = m.index + m[0].length;
			const end = text.indexOf(')', open) + 1;
			if (!isCallLike(name, text.slice(open, end - 1))) continue;
			// Only the name is claimed: the arguments may hold identifiers of their own.
			if (isFree(scan, m.index, end))
				emit(scan, `${name}()`, 'identifier', m.index, m.index + name.length);
		}
	// A pattern runs only when the text has the character it needs (a cheap scan per pass).
	const passes = [
		text.includes('.') && DOTTED_RE,
		text.includes('_') && SNAKE_RE,
		text.includes('-') && KEBAB_RE,
		CAMEL_RE,
	];
	for (const re of passes) if (re) scanIdentifierPass(scan, re);
}

function scanIdentifierPass(scan: Scan, re: RegExp): void {
	for (const m of scan.text.matchAll(re)) {
		const token = m[0];
		if (!isFree(scan, m.index, m.index + token.length)) continue;
		if (re === KEBAB_RE && !isKebabCode(token)) continue;
		if (re === CAMEL_RE && (NAME_PREFIX.test(token) || STOP_WORDS.has(token.toLowerCase())))
			continue;
		const hit = known(token);
		// A known capitalised name ("GitHub") is left to the word scanner, which sees the whole
		// name it may start ("GitHub Actions").
		if (hit && re === CAMEL_RE && isCapitalised(token)) continue;
		if (hit) emit(scan, hit.display, hit.type, m.index, m.index + token.length);
		else if (re !== DOTTED_RE || isCodeShaped(token)) emit(scan, token, 'identifier', m.index);
	}
}

/**
 * Kebab-case names with digits or inner capitals are model, region and package names
 * ("all-MiniLM-L6-v2", "eu-west-1", "bge-m3"); "state-of-the-art", "mid-2023", "COVID-19" are not.
 */
function isKebabCode(token: string): boolean {
	const parts = token.split('-');
	const mixed = parts.some((p) => (/\d/.test(p) && /[a-z]/i.test(p)) || /[a-z][A-Z]/.test(p));
	return mixed || (parts.length >= 3 && /\d/.test(token));
}

/** "fn()", "parse(text)", "fetch(url, opts)" are calls; "item(s)" and "Maya(she)" are prose. */
function isCallLike(name: string, args: string): boolean {
	if (args === '' || isCodeShaped(name)) return true;
	if (/^(?:s|es|ies|en|e|er|or|a|an)$/i.test(args)) return false;
	return !/\s/.test(args) || args.includes(',');
}

/** camelCase, PascalCase with inner capitals, snake_case, dotted paths whose parts aren't words. */
function isCodeShaped(name: string): boolean {
	if (name.includes('_') || /[a-z][A-Z]/.test(name)) return true;
	const parts = name.split('.');
	// "e.g" and "i.e" are prose; "os.path" and "Array.prototype" are code.
	return parts.length > 1 && parts.every((p) => p.length >= 2);
}

/** Short quoted phrases become terms; their content is left free so names inside still count. */
function scanQuotes(scan: Scan): void {
	for (const m of scan.text.matchAll(QUOTE_RE)) {
		const raw = m[1] ?? m[2] ?? m[3] ?? m[4];
		const inner = raw.replace(/[\s.,;:!?]+$/, '').trim();
		if (!inner || !isFree(scan, m.index, m.index + m[0].length, false)) continue;
		if (!isTermLike(inner, raw)) continue;
		scan.out.push({ name: inner, type: 'term', pos: m.index });
	}
}

/**
 * A quoted phrase is a term when short and not an utterance: at most six words, at most half of
 * them function words ("Ship it" yes, "I'll do it tomorrow" no), not ending in ? or !, without
 * commas, not shouted; a single word needs three letters and must not be a stop word.
 */
function isTermLike(inner: string, raw: string): boolean {
	const words = inner.split(/\s+/);
	if (words.length > 6 || !/\p{L}/u.test(inner) || /[?!]\s*$/.test(raw)) return false;
	if (words.length === 1) return !STOP_WORDS.has(plainKey(inner)) && inner.length >= 3;
	if (/[,;]/.test(inner)) return false; // "curious now, not smug" is a remark, not a term
	if (inner === inner.toUpperCase()) return false; // "GO DAD GO" is a cheer
	const stops = words.filter((w) => FUNCTION_WORDS.has(plainKey(w))).length;
	return stops * 2 <= words.length;
}

// --- proper names ----------------------------------------------------------------------------

interface Token {
	text: string;
	start: number;
	end: number;
	key: string;
}

/** Most words in a run of capitalised words that can still be a name ("Rocky Mountain National Park"). */
const MAX_RUN = 8;

/** Words scanner: lowercase tool names and runs of capitalised words (proper names). */
function scanWords(scan: Scan): void {
	const shouting = isShouting(scan.text);
	let run: Token[] = [];
	// Longer runs of capitals are headings or shouting, not names; dropping them also keeps
	// trimRun's lookups from growing with the square of a 10,000-word run.
	let overflow = false;
	for (const m of scan.text.matchAll(WORD_RE)) {
		const text = m[0];
		const start = m.index;
		const free = isFree(scan, start, start + text.length, false);
		const capital = free && !shouting && isCapitalised(text);
		// Only capitalised words need a lookup key; lowercase ones are compared as written.
		const token: Token = {
			text,
			start,
			end: start + text.length,
			key: capital || shouting ? plainKey(text) : text,
		};
		const joins = run.length > 0 && continuesRun(scan.text, run[run.length - 1], token);
		// Lowercase connectors stay in the run only if a capitalised word follows (see trimRun).
		if (joins && (capital || (free && NAME_CONNECTORS.has(text)))) {
			if (run.length < MAX_RUN) run.push(token);
			else overflow = true;
			continue;
		}
		if (!overflow) flushRun(scan, run);
		overflow = false;
		run = capital ? [token] : [];
		if (!capital && free && LOWERCASE_TOOLS.has(token.key)) lowercaseTool(scan, token);
	}
	if (!overflow) flushRun(scan, run);
}

/** A text written mostly in capitals is shouting; its capitals say nothing about names. */
function isShouting(text: string): boolean {
	let upper = 0;
	let lower = 0;
	for (let i = 0; i < text.length && upper + lower < 400; i++) {
		const c = text.charCodeAt(i);
		if (c >= 65 && c <= 90) upper++;
		else if (c >= 97 && c <= 122) lower++;
	}
	return upper + lower >= 20 && upper > lower * 2;
}

function isCapitalised(word: string): boolean {
	const c = word.charCodeAt(0);
	if (c < 128) return c >= 65 && c <= 90; // ASCII fast path: no string allocation
	const first = word[0];
	return first !== first.toLowerCase() && first === first.toUpperCase();
}

function isAllCaps(word: string): boolean {
	return word.length >= 2 && word === word.toUpperCase() && word !== word.toLowerCase();
}

/** Two words belong to one name when one space (or " & ", as in "Bath & Body Works") separates them. */
function continuesRun(text: string, prev: Token, next: Token): boolean {
	const gap = next.start - prev.end;
	if (gap === 3) return text.startsWith(' & ', prev.end);
	if (gap !== 1) return false;
	const c = text[prev.end];
	if (c !== ' ' && c !== '\u00a0' && c !== '\t') return false;
	// "Maya's Team": a possessive ends the name, except in holidays ("New Year's Eve").
	return !POSSESSIVE.test(prev.text) || next.text === 'Day' || next.text === 'Eve';
}

/** True when a word opens a sentence, a line, a list item or a quotation. */
function isSentenceStart(text: string, pos: number): boolean {
	for (let i = pos - 1; i >= 0; i--) {
		const c = text[i];
		if (c === ' ' || c === '\t' || c === '\u00a0') continue;
		if (c === '\n' || c === '\r') return true;
		if ('!?:;-*•>#"“‘(['.includes(c)) return true;
		if (c === '.') return true;
		if (c >= '0' && c <= '9') return lineStartNumber(text, i);
		return false;
	}
	return true;
}

/** "1) Maya" and "2. Maya" at line start are list items. */
function lineStartNumber(text: string, i: number): boolean {
	while (i >= 0 && text[i] >= '0' && text[i] <= '9') i--;
	return i < 0 || text[i] === '\n';
}

/** Distinctive tool names count even in lowercase ("moved from postgres to dynamodb"). */
function lowercaseTool(scan: Scan, token: Token): void {
	const hit = GAZETTEER.get(token.key);
	if (hit) emit(scan, hit.display, 'tool', token.start, token.end);
}

/** Turns a run of capitalised words into zero or more named entities. */
function flushRun(scan: Scan, run: Token[]): void {
	if (run.length === 0) return;
	const initial = isSentenceStart(scan.text, run[0].start);
	let tokens = trimRun(run, initial);
	// A sentence-opening verb ("Adopted Luna", "Visiting Kyoto") is not part of the name.
	let stillInitial = initial && tokens[0] === run[0];
	if (
		stillInitial &&
		tokens.length > 1 &&
		looksLikeVerb(tokens[0]) &&
		!GAZETTEER.has(runKey(tokens))
	) {
		tokens = trimRun(tokens.slice(1), false);
		stillInitial = false;
	}
	for (const part of splitRun(tokens)) {
		const mention = nameMention(scan, part, stillInitial && part[0] === tokens[0]);
		if (mention) emit(scan, mention.name, mention.type, part[0].start, part[part.length - 1].end);
	}
}

function looksLikeVerb(t: Token): boolean {
	return t.text.length >= 5 && /(?:ing|ed|ly)$/.test(t.key) && !FIRST_NAMES.has(t.key);
}

/** Capitalised abbreviations that are not names. */
const CAPS_STOP = new Set([
	// Generic technical acronyms: every other memory mentions them, so as entities they would
	// link unrelated memories.
	'api',
	'apis',
	'url',
	'urls',
	'uri',
	'ci',
	'cd',
	'db',
	'os',
	'cli',
	'sdk',
	'ide',
	'cpu',
	'gpu',
	'ram',
	'http',
	'https',
	'tcp',
	'ip',
	'dns',
	'ssh',
	'ssl',
	'tls',
	'ok',
	'todo',
	'fixme',
	'fyi',
	'asap',
	'tldr',
	'ps',
	'nb',
	'lol',
	'omg',
	'btw',
	'imo',
	'imho',
	'am',
	'pm',
	'eta',
	'aka',
	'etc',
	'vs',
	're',
	'fw',
	'fwd',
	'tbd',
	'wip',
	'faq',
	'diy',
	'rip',
	'phd',
	'ceo',
	'cto',
	'cfo',
	'vp',
	'hr',
	'pr',
	'prs',
	'qa',
	'ui',
	'ux',
	'id',
	'ids',
]);

/** A word that cannot stand at a name's edge: a stop word, calendar word or honorific. */
function isEdgeJunk(t: Token, next: Token | undefined, initial: boolean): boolean {
	if (NAME_CONNECTORS.has(t.key)) return true;
	if (isAllCaps(t.text)) return CAPS_STOP.has(t.key);
	// "Will Smith", "May Chen": a first name followed by a surname is kept.
	if (FIRST_NAMES.has(t.key) && next && !STOP_WORDS.has(next.key) && !CALENDAR_WORDS.has(next.key))
		return false;
	// "Mom" and "Grandma" alone are people; "Uncle" in "Uncle Bob" is a title.
	if (FAMILY_NAMES.has(t.key)) return next !== undefined;
	if (CALENDAR_WORDS.has(t.key) || HONORIFICS.has(t.key)) return true;
	// "Go ahead" opens a sentence with a verb; "React Redux" opens it with a list of tools.
	if (initial && COMMON_WORD_TOOLS.has(t.key)) return !next || !GAZETTEER.has(next.key);
	if (initial) return STOP_WORDS.has(t.key);
	// Mid-sentence capitals mark a proper noun: "I write Go", "ask Will", "the New Deal"; only
	// pronouns and articles ("I", "The") are dropped.
	return FUNCTION_WORDS.has(t.key) && !GAZETTEER.has(t.key) && !FIRST_NAMES.has(t.key);
}

/** Family words that name a person when capitalised and alone ("Mom said", "visit Grandma"). */
const FAMILY_NAMES = new Set(
	'mom|mum|dad|mama|papa|grandma|grandpa|granny|nana|nan|grandmother|grandfather|auntie'.split('|'),
);

/**
 * Shouting inside normal text ("NO WAY", "GO DAD GO", "PASSED") is not a name: several capitals-only
 * words, or one of five letters or more, that no lexicon knows. Short acronyms ("AWS", "CPA") stay.
 */
function isShoutedRun(tokens: Token[]): boolean {
	if (!tokens.every((t) => isAllCaps(t.text)) || GAZETTEER.has(runKey(tokens))) return false;
	// "AWS MSK" and "GCP IAM" are acronyms side by side; "NO WAY" and "GO DAD GO" have words.
	const shouted = (t: Token) =>
		STOP_WORDS.has(t.key) ||
		(t.key.length >= 5 && !FIRST_NAMES.has(t.key) && /^[a-z]+$/.test(t.key));
	return tokens.length > 1
		? tokens.some((t) => shouted(t) || t.key.length >= 5)
		: shouted(tokens[0]);
}

/** "Memorial Day", "Christmas Eve", "Mother's Day", "New Year": holidays are dates, not entities. */
function isHoliday(tokens: Token[]): boolean {
	const last = tokens[tokens.length - 1].key;
	return tokens.length > 1 && (last === 'day' || last === 'eve' || runKey(tokens) === 'new year');
}

/** Drops stop words, calendar words and connectors from the ends of a run (keeping "New York"). */
function trimRun(run: Token[], initial: boolean): Token[] {
	if (run.length > 1 && GAZETTEER.has(runKey(run))) return run;
	let a = 0;
	let b = run.length;
	while (a < b && isEdgeJunk(run[a], run[a + 1], initial && a === 0)) {
		a++;
		if (b - a > 1 && GAZETTEER.has(runKey(run.slice(a, b)))) return run.slice(a, b);
	}
	while (b > a && isEdgeJunk(run[b - 1], undefined, false)) b--;
	return run.slice(a, b);
}

function runKey(tokens: Token[]): string {
	return tokens.map((t) => t.key).join(' ');
}

/**
 * Splits a run into separate names when the whole is unknown but every word is a known name
 * ("React Redux TypeScript", "Paris France"); otherwise keeps it whole ("Maya Chen").
 */
function splitRun(tokens: Token[]): Token[][] {
	if (tokens.length < 2 || GAZETTEER.has(runKey(tokens))) return tokens.length ? [tokens] : [];
	const allKnown = tokens.every((t) => GAZETTEER.has(t.key) && !FIRST_NAMES.has(t.key));
	return allKnown ? tokens.map((t) => [t]) : [tokens];
}

const words = (list: string) => new Set(list.split('|'));

// Context cues: the one or two words right before a name, or right after it. Looked up in Sets
// rather than matched with end-anchored regexes, which cost a scan of the preceding text each.
const PERSON_BEFORE = words(
	// Not "called": "a beach called Lagoinha" names a place as often as a person.
	'with|met|meet|meeting|asked|ask|told|tell|thanks|thank|cc|dear|hi|hey|hello|call|calling|' +
		'emailed|email|texted|text|pinged|ping|invited|hugged|married|dating|love',
);
/** Relations in "my friend X", "my boss X". */
const KIN = words(
	'friend|wife|husband|partner|boyfriend|girlfriend|fiance|fiancé|fiancee|fiancée|boss|manager|' +
		'colleague|coworker|co-worker|sister|brother|mom|mum|mother|dad|father|son|daughter|cousin|' +
		'uncle|aunt|niece|nephew|grandma|grandpa|grandmother|grandfather|mentor|neighbour|neighbor|' +
		'roommate|flatmate|teammate|doctor|therapist|dentist|teacher|tutor|coach|kid|baby|buddy|pal',
);
const PERSON_AFTER = words(
	'said|says|told|tells|asked|asks|wrote|writes|thinks|thought|mentioned|replied|suggested|' +
		'wants|wanted|likes|liked|loves|loved|prefers|preferred|recommended|agreed|explained|' +
		'messaged|emailed|texted|herself|himself|is my|was my|and i|and me',
);
/** What "X's …" may be followed by when X is a person. */
const POSSESSED = words(
	'wife|husband|partner|birthday|mom|mum|dad|sister|brother|son|daughter|kids|family|friend|' +
		'boss|car|house|dog|cat',
);
const PLACE_BEFORE = words(
	'visit|visited|visiting|moved to|move to|moving to|lives in|live in|living in|lived in|' +
		'born in|trip to|flew to|fly to|flight to|drove to|travel to|traveled to|travelled to|' +
		'traveling to|travelling to|vacation in|holiday in|based in|located in|relocate to|' +
		'relocated to|relocating to|city of|went to|back in|stayed in|staying in|weekend in|' +
		'week in|arrived in|headed to|heading to',
);
const WEAK_PLACE_BEFORE = words('in|near|outside|around');
/** Weak place cues, used only to settle a word that is both a first name and a place. */
const PLACE_PREPOSITIONS = words('in|to|from|at|near|around|across|outside|of');
const ORG_BEFORE = words(
	'joined|join|joining|works at|work at|works for|work for|working at|working for|worked at|' +
		'worked for|hired by|employed at|employed by|interview at|interviewed at|interviewing at|' +
		'interview with|interviewed with|interviewing with|job at|offer from|internship at|' +
		'acquired by|customer of|partnered with',
);
const PROJECT_BEFORE = words('project|repo|repository|codebase|working on|work on');
const PROJECT_AFTER = words(
	'project|repo|repository|codebase|app|service|library|package|plugin|extension',
);

/** The words next to a name, lowercase: nearest first before it, in reading order after it. */
interface NameContext {
	before: string[];
	after: string[];
	/** The word before ends in a dot ("Dr."), so only an honorific can be a cue. */
	dotted: boolean;
	personCue: boolean;
	firstName: boolean;
}

const isWordCode = (c: number): boolean =>
	(c >= 97 && c <= 122) ||
	(c >= 65 && c <= 90) ||
	(c >= 48 && c <= 57) ||
	c === 39 ||
	c === 45 ||
	c === 0x2019 ||
	(c > 127 && /\p{L}/u.test(String.fromCharCode(c)));

/** Up to `max` words on one side of [start, end), separated by blanks only; stops at punctuation. */
function wordsNear(text: string, from: number, dir: 1 | -1, max: number): string[] {
	const out: string[] = [];
	let i = dir < 0 ? from - 1 : from;
	while (out.length < max) {
		const blankStart = i;
		while (i >= 0 && i < text.length && (text[i] === ' ' || text[i] === '\t')) i += dir;
		if (i === blankStart) break; // punctuation or text edge: the context ends here
		let j = i;
		while (j >= 0 && j < text.length && isWordCode(text.charCodeAt(j))) j += dir;
		if (j === i) break;
		out.push((dir < 0 ? text.slice(j + 1, i + 1) : text.slice(i, j)).toLowerCase());
		i = j;
	}
	return out;
}

/** The lowercase word that ends just before index `end`. */
function wordEndingAt(text: string, end: number): string {
	let i = end;
	while (i > 0 && isWordCode(text.charCodeAt(i - 1))) i--;
	return text.slice(i, end).toLowerCase();
}

function nameContext(text: string, tokens: Token[]): NameContext {
	const start = tokens[0].start;
	const last = tokens[tokens.length - 1];
	const dotted = start >= 2 && text[start - 1] === ' ' && text[start - 2] === '.';
	const before = dotted ? [wordEndingAt(text, start - 2)] : wordsNear(text, start, -1, 2);
	const after = wordsNear(text, last.end, 1, 2);
	const ctx: NameContext = {
		before,
		after,
		dotted,
		personCue: false,
		firstName: FIRST_NAMES.has(tokens[0].key),
	};
	const strong =
		HONORIFICS.has(before[0] ?? '') ||
		(!dotted && (PERSON_BEFORE.has(before[0]) || (before[1] === 'my' && KIN.has(before[0]))));
	// "in Racine and I had a shift": a following verb says less than a preceding preposition, and
	// "MRI says" is an acronym, not a person.
	const weak =
		!PLACE_PREPOSITIONS.has(before[0]) &&
		!isAllCaps(tokens[0].text) &&
		(hasCue(PERSON_AFTER, after, true) || (POSSESSIVE.test(last.text) && POSSESSED.has(after[0])));
	// "the Sicilian", "in English": demonyms and languages are not people.
	ctx.personCue =
		(strong || weak) && !(tokens.length === 1 && !ctx.firstName && DEMONYM.test(tokens[0].key));
	return ctx;
}

/** True when the nearest one or two words (in text order) form a phrase of `set`. */
function hasCue(set: Set<string>, ws: string[], forward = false): boolean {
	if (ws.length === 0) return false;
	if (set.has(ws[0])) return true;
	return ws.length > 1 && set.has(forward ? `${ws[0]} ${ws[1]}` : `${ws[1]} ${ws[0]}`);
}

const DEMONYM = /(?:ian|ese|ish)$/;

const cueBefore = (set: Set<string>, ctx: NameContext) => !ctx.dotted && hasCue(set, ctx.before);

/** Type and display name of a run of capitalised words, or nothing when it is not a name. */
function nameMention(
	scan: Scan,
	tokens: Token[],
	initial: boolean,
): { name: string; type: EntityType } | undefined {
	const start = tokens[0].start;
	const end = tokens[tokens.length - 1].end;
	const name = scan.text.slice(start, end).replace(POSSESSIVE, '');
	const ctx = nameContext(scan.text, tokens);
	const hit = lexiconHit(tokens);
	if (hit) return { name: hit.display, type: knownType(hit.type, tokens, ctx) };
	if (isShoutedRun(tokens) || isHoliday(tokens)) return undefined;
	const type = inferType(tokens, ctx);
	if (type === 'concept' && initial && !acceptInitialUnknown(tokens)) return undefined;
	if (
		type === 'concept' &&
		tokens.length === 1 &&
		(tokens[0].text.length < 2 || STOP_WORDS.has(tokens[0].key))
	)
		return undefined;
	return { name, type };
}

/**
 * The lexicon entry for a run, unless the writing contradicts it: a tool written in lowercase
 * ("pip", "npm") capitalised as a name ("Pip the otter") is the name.
 */
function lexiconHit(tokens: Token[]): { display: string; type: EntityType } | undefined {
	const hit = GAZETTEER.get(runKey(tokens));
	if (!hit || hit.type !== 'tool' || tokens.length > 1) return hit;
	const text = tokens[0].text;
	const titleCase = text.length > 1 && text.slice(1) === text.slice(1).toLowerCase();
	return titleCase && hit.display === hit.display.toLowerCase() ? undefined : hit;
}

/** A gazetteer hit, unless context says otherwise ("Jordan Smith", "with Sofia", "Phoenix app"). */
function knownType(type: EntityType, tokens: Token[], ctx: NameContext): EntityType {
	if (type === 'place' && ctx.firstName) {
		if (tokens.length > 1 || ctx.personCue) return 'person';
		if (!cueBefore(PLACE_BEFORE, ctx) && !cueBefore(PLACE_PREPOSITIONS, ctx)) return 'person';
	}
	if (type !== 'tool' && (cueBefore(PROJECT_BEFORE, ctx) || PROJECT_AFTER.has(ctx.after[0])))
		return 'project';
	return type;
}

function inferType(tokens: Token[], ctx: NameContext): EntityType {
	const first = tokens[0].key;
	const last = tokens[tokens.length - 1].key;
	const multi = tokens.length > 1;
	if (multi && (ORG_SUFFIXES.has(last) || ORG_PREFIXES.has(first))) return 'organisation';
	if (first === 'project' || cueBefore(PROJECT_BEFORE, ctx) || PROJECT_AFTER.has(ctx.after[0]))
		return 'project';
	if (cueBefore(ORG_BEFORE, ctx)) return 'organisation';
	if (ctx.personCue) return 'person';
	// "Sky Islands", "Mason Street": a place suffix outweighs a first name.
	if (multi && (PLACE_SUFFIXES.has(last) || PLACE_PREFIXES.has(first))) return 'place';
	if ((ctx.firstName && tokens.length <= 4) || FAMILY_NAMES.has(first)) return 'person';
	if (cueBefore(PLACE_BEFORE, ctx)) return 'place';
	// "in Racine", "near Florianópolis": an unknown name after a locative preposition.
	if (
		!ctx.dotted &&
		WEAK_PLACE_BEFORE.has(ctx.before[0]) &&
		tokens.length <= 3 &&
		!DEMONYM.test(last)
	)
		return 'place';
	const head = GAZETTEER.get(first);
	// "Google Maps", "Azure Functions": a product of a known company or platform.
	if (multi && head && (head.type === 'organisation' || head.type === 'tool')) return 'tool';
	return 'concept';
}

/**
 * A capitalised word opening a sentence is usually just a word ("Deploy", "Meanwhile"): keep an
 * unknown one only when it is an acronym or starts a multi-word name ("Blue Harbor Cafe").
 */
function acceptInitialUnknown(tokens: Token[]): boolean {
	return tokens.length > 1 || isAllCaps(tokens[0].text);
}
