/** Names, places and bio pieces the world's people are made of. */

/** First names, from many places, as people write them on X. */
export const FIRST_NAMES = [
  "Ava", "Liam", "Maya", "Noah", "Zoe", "Ethan", "Priya", "Arjun", "Sofia", "Mateo", "Chloe", "Lucas", "Amara", "Kofi",
  "Yuki", "Kenji", "Lena", "Jonas", "Ines", "Tomas", "Nadia", "Omar", "Leila", "Hassan", "Mei", "Wei", "Hana", "Minh",
  "Sara", "David", "Emma", "Oliver", "Isla", "Jack", "Mia", "Leo", "Aisha", "Tunde", "Chidi", "Ngozi", "Rahul", "Ananya",
  "Diego", "Camila", "Valentina", "Santiago", "Lucia", "Pablo", "Elena", "Marco", "Giulia", "Luca", "Freya", "Erik",
  "Astrid", "Nils", "Anya", "Dmitri", "Olga", "Ivan", "Fatima", "Yusuf", "Zainab", "Emre", "Elif", "Can", "Grace",
  "Daniel", "Rachel", "Sam", "Alex", "Jordan", "Taylor", "Morgan", "Casey", "Riley", "Jamie", "Avery", "Quinn", "Rowan",
  "Nora", "Felix", "Hugo", "Clara", "Theo", "Julia", "Max", "Lara", "Ben", "Kate", "Tom", "Anna", "Ryan", "Laura",
  "Chris", "Nina", "Paul", "Eva", "Mark", "Ruth", "Adam", "Ivy", "Owen", "June", "Eli", "Rosa", "Ian", "Vera", "Kai",
  "Tara", "Jay", "Lina", "Ravi", "Sana", "Ben", "Dara", "Femi", "Bola", "Kemi", "Juan", "Ana", "Joao", "Beatriz",
];

/** Family names. */
export const LAST_NAMES = [
  "Chen", "Patel", "Garcia", "Kim", "Nguyen", "Smith", "Johnson", "Okafor", "Adeyemi", "Mensah", "Silva", "Santos",
  "Rossi", "Bianchi", "Muller", "Schmidt", "Dubois", "Martin", "Novak", "Kowalski", "Ivanova", "Petrov", "Tanaka",
  "Sato", "Suzuki", "Park", "Lee", "Wang", "Li", "Zhang", "Khan", "Ali", "Hassan", "Yilmaz", "Demir", "Haddad",
  "Cohen", "Levi", "Brown", "Wilson", "Taylor", "Anderson", "Thomas", "Moore", "Clark", "Lewis", "Walker", "Hall",
  "Young", "King", "Wright", "Scott", "Green", "Baker", "Adams", "Nelson", "Hill", "Campbell", "Mitchell", "Roberts",
  "Carter", "Phillips", "Evans", "Turner", "Torres", "Parker", "Collins", "Edwards", "Stewart", "Morris", "Murphy",
  "Cook", "Rogers", "Morgan", "Cooper", "Peterson", "Reed", "Bailey", "Bell", "Gomez", "Kelly", "Howard", "Ward",
  "Cox", "Diaz", "Richardson", "Wood", "Watson", "Brooks", "Bennett", "Gray", "James", "Reyes", "Cruz", "Hughes",
  "Price", "Myers", "Long", "Foster", "Sanders", "Ross", "Morales", "Powell", "Sullivan", "Russell", "Ortiz", "Jenkins",
  "Perez", "Larsen", "Berg", "Lindqvist", "Virtanen", "Horvat", "Popescu", "Nowak", "Kaur", "Singh", "Reddy", "Iyer",
];

/** Profile locations with the UTC offset (hours) their people post by; null offset: anywhere. */
export const LOCATIONS: readonly (readonly [string, number])[] = [
  ["San Francisco, CA", -8], ["New York, NY", -5], ["Austin, TX", -6], ["Seattle, WA", -8], ["Los Angeles, CA", -8],
  ["Boston, MA", -5], ["Chicago, IL", -6], ["Miami, FL", -5], ["Denver, CO", -7], ["Toronto, Canada", -5],
  ["Vancouver, BC", -8], ["Mexico City", -6], ["São Paulo, Brasil", -3], ["Buenos Aires", -3], ["Bogotá, Colombia", -5],
  ["London, England", 0], ["Manchester, UK", 0], ["Dublin, Ireland", 0], ["Lisbon, Portugal", 0], ["Paris, France", 1],
  ["Berlin, Germany", 1], ["Munich", 1], ["Amsterdam", 1], ["Stockholm, Sweden", 1], ["Copenhagen", 1],
  ["Madrid, España", 1], ["Barcelona", 1], ["Milan, Italy", 1], ["Zürich", 1], ["Warsaw, Poland", 1],
  ["Helsinki", 2], ["Kyiv", 2], ["Istanbul", 3], ["Tel Aviv", 2], ["Cairo, Egypt", 2], ["Lagos, Nigeria", 1],
  ["Nairobi, Kenya", 3], ["Accra, Ghana", 0], ["Cape Town", 2], ["Dubai, UAE", 4], ["Bangalore, India", 5.5],
  ["Mumbai", 5.5], ["Delhi, India", 5.5], ["Singapore", 8], ["Jakarta", 7], ["Ho Chi Minh City", 7],
  ["Hong Kong", 8], ["Shanghai", 8], ["Seoul, South Korea", 9], ["Tokyo, Japan", 9], ["Osaka", 9],
  ["Sydney, Australia", 10], ["Melbourne", 10], ["Auckland, NZ", 12], ["Remote", -2], ["Earth", 0],
  ["the internet", -5], ["Bay Area", -8], ["NYC / SF", -6], ["Brooklyn", -5], ["Oakland, CA", -8],
];

/** Bio endings that make a profile read like a person. */
export const BIO_FLAIR = [
  "Dad of two.", "Mom of three.", "Coffee snob.", "Runner.", "Views my own.", "Building in public.", "Ex-Google.",
  "Ex-Stripe.", "Ex-Meta.", "Ex-McKinsey.", "Writing weekly.", "DMs open.", "Occasional shitposter.", "Cat person.",
  "Dog dad.", "Climber.", "Learning Japanese.", "Sourdough enthusiast.", "Hiring!", "Angel investor.", "Newsletter below.",
  "Making things on the internet.", "Opinions are temporary.", "Recovering perfectionist.", "Chess at 1800.", "Plant parent.",
];

/** Made-up company names for "Founder @ X" bios and product posts. */
export const COMPANIES = [
  "Loomly", "Stackwise", "Brightpath", "Northwind Labs", "Quillo", "Paperplane", "Fernhill", "Orbitly", "Tidepool",
  "Mintform", "Cobalt AI", "Hatchbox", "Lumen Studio", "Kitebase", "Parallel Works", "Sprout HQ", "Beacon Data",
  "Driftwood", "Nimbus", "Copperline", "Fieldnote", "Glassbox", "Harbor", "Inkwell", "Juniper", "Keystone Labs",
];
